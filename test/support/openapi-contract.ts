import { parse as parseMediaType } from "content-type";
import { parse as parseCsv } from "csv-parse/sync";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import { parseExactJson } from "@/lib/json/exact-json";

// Checks real HTTP answers against the OpenAPI document the app serves: the
// status is declared for the operation, declared headers marked required are
// present, declared headers that are there have values their schemas allow,
// and the body has a declared media type and validates (JSON Schema 2020-12,
// OpenAPI 3.1's dialect) against the declared schema. A text/csv body is
// text, whose schema says little: it must also be RFC 4180 CSV that a strict
// parser reads, records of one length, each ended by CRLF.

type Json = { [key: string]: unknown };
type Header = { required?: boolean; schema?: Json };
type MediaType = { schema?: Json };
type ResponseObject = { description: string; headers?: Record<string, Header>; content?: Record<string, MediaType> };
type Operation = { responses: Record<string, ResponseObject | { $ref: string }> };

export type OpenApiJson = {
  openapi: string;
  paths: Record<string, Record<string, Operation | unknown>>;
  components: { schemas: Record<string, Json>; responses: Record<string, ResponseObject> };
};

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

export type Exchange = { method: string; pathTemplate: string; response: Response };

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiJson) {
    // ajv knows no bigint, so bodies reach it with numbers (see asJsonNumbers):
    // these formats check integer-ness and range as far as a double can tell.
    // That ids keep every digit is pinned by tests comparing bigints.
    this.ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
    this.ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 63) && n <= 2 ** 63 });
  }

  /** The ways the answer departs from the document; empty when it conforms. */
  async problems({ method, pathTemplate, response }: Exchange): Promise<string[]> {
    const pathItem = this.document.paths[pathTemplate];
    if (!pathItem) return [`path ${pathTemplate} is not in the document`];
    const operation = pathItem[method.toLowerCase()] as Operation | undefined;
    const where = `${method} ${pathTemplate} ${response.status}`;
    // Methods a path lacks answer the document's MethodNotAllowed.
    const declared = operation
      ? operation.responses[String(response.status)] ?? operation.responses.default
      : response.status === 405
        ? this.document.components.responses.MethodNotAllowed
        : undefined;
    if (!declared) return [`${where}: status not declared`];
    const answer = this.deref(declared) as ResponseObject;
    const problems: string[] = [];
    for (const [name, header] of Object.entries(answer.headers ?? {})) {
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`${where}: required header ${name} missing`);
        continue;
      }
      if (header.schema && !this.validator(header.schema)(headerValue(value, header.schema))) {
        problems.push(`${where}: header ${name}: ${value} does not match its schema`);
      }
    }
    if (response.headers.get("content-type")?.startsWith("text/event-stream") && answer.content?.["text/event-stream"]) {
      return [...problems, ...(await eventStreamProblems(where, response))];
    }
    const text = await response.text();
    if (!answer.content) {
      if (text !== "") problems.push(`${where}: declared without a body, but has one`);
      return problems;
    }
    const contentType = response.headers.get("content-type");
    const mediaType = contentType ? parseMediaType(contentType).type : "(none)";
    const schema = answer.content[mediaType]?.schema;
    if (!schema) return [...problems, `${where}: media type ${mediaType} not declared`];
    const validate = this.validator(schema);
    if (mediaType === "text/csv") return [...problems, ...csvProblems(where, text), ...(validate(text) ? [] : [`${where}: CSV body does not match its schema`])];
    if (!validate(asJsonNumbers(parseExactJson(text)))) {
      problems.push(`${where}: body ${text} does not match: ${this.ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }

  /** Every status of every operation, as "METHOD /path STATUS", plus the 405 of each path. */
  declaredStatuses(): string[] {
    return Object.entries(this.document.paths).flatMap(([path, item]) => [
      ...Object.entries(item)
        .filter(([method]) => METHODS.has(method))
        .flatMap(([method, operation]) => Object.keys((operation as Operation).responses).map((status) => `${method.toUpperCase()} ${path} ${status}`)),
      `* ${path} 405`,
    ]);
  }

  private validator(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(this.deref(schema) as Json);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** Inlines local references (#/components/...); the document has no cycles. */
  private deref(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((item) => this.deref(item));
    if (typeof node !== "object" || node === null) return node;
    const ref = (node as Json).$ref;
    if (typeof ref === "string") {
      const target = ref
        .replace(/^#\//, "")
        .split("/")
        .reduce<unknown>((at, key) => (at as Json | undefined)?.[key], this.document);
      if (target === undefined) throw new Error(`unresolved reference ${ref}`);
      return this.deref(target);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, this.deref(value)]));
  }
}

/** A header's text as its schema's type: an integer header must be written as a plain decimal integer. */
function headerValue(value: string, schema: Json): unknown {
  if (schema.type !== "integer") return value;
  return /^(0|-?[1-9]\d*)$/.test(value) ? Number(value) : value;
}

/** A stream never ends: its first piece is read, which must be the retry field every stream opens with, and the rest left. */
async function eventStreamProblems(where: string, response: Response): Promise<string[]> {
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  const first = new TextDecoder().decode(value);
  return /^retry: \d+\n/.test(first) ? [] : [`${where}: the event stream opens with ${JSON.stringify(first.slice(0, 40))}, not its retry field`];
}

function csvProblems(where: string, text: string): string[] {
  try {
    // Strict by default: a stray quote, or a record of another length than the first, throws.
    const records = parseCsv(text, { bom: false }) as string[][];
    if (records.length === 0) return [`${where}: CSV body is empty`];
  } catch (error) {
    return [`${where}: CSV body is not RFC 4180 CSV: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (!text.endsWith("\r\n") || /[\r\n]/.test(text.replace(/"(?:[^"]|"")*"/g, "").replaceAll("\r\n", ""))) {
    return [`${where}: CSV records must each end with CRLF`];
  }
  return [];
}

/** A parsed body with bigints as numbers, for the type check only. */
export function asJsonNumbers(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(asJsonNumbers);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asJsonNumbers(item)]));
}
