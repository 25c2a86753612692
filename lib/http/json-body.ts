import { type ContentType, parse as parseMediaType } from "content-type";
import { ApiError } from "@/lib/http/api-error";
import { MAX_BODY_BYTES, MAX_DISCARD_BYTES } from "@/lib/http/body-limits";
import { parseExactJson } from "@/lib/json/exact-json";

/**
 * Reads a request's JSON body without trusting it: the media type must be
 * application/json in UTF-8 (415 otherwise), at most MAX_BODY_BYTES are read
 * (413 past that, whatever Content-Length claims), and numbers keep every digit.
 * request.json() must not be used: it rounds ids above 2^53.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  requireJsonMediaType(request.headers.get("content-type"));
  const bytes = await readAtMost(request, MAX_BODY_BYTES);
  if (bytes.byteLength === 0) throw new ApiError("BadRequest", "the request body is empty; send a JSON object");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError("BadRequest", "the request body is not valid UTF-8");
  }
  try {
    return parseExactJson(text);
  } catch (error) {
    // lossless-json names the problem and its position; anything else here
    // is a stack overflow from absurd nesting.
    const reason = error instanceof SyntaxError ? error.message : "it is nested too deeply";
    throw new ApiError("BadRequest", `the request body is not valid JSON: ${reason}`);
  }
}

function requireJsonMediaType(header: string | null): void {
  const expected = "Content-Type must be application/json (charset utf-8)";
  if (header === null) throw new ApiError("UnsupportedMediaType", `the request has no Content-Type; ${expected}`);
  let parsed: ContentType;
  try {
    parsed = parseMediaType(header);
  } catch {
    throw new ApiError("UnsupportedMediaType", `the Content-Type header is malformed; ${expected}`);
  }
  if (parsed.type !== "application/json") throw new ApiError("UnsupportedMediaType", `unsupported media type ${parsed.type}; ${expected}`);
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== "utf-8") throw new ApiError("UnsupportedMediaType", `unsupported charset ${charset}; ${expected}`);
}

async function readAtMost(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_DISCARD_BYTES) throw tooLarge({ closeConnection: true });
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > MAX_DISCARD_BYTES) throw tooLarge({ closeConnection: true });
    // Past the limit nothing is kept; the rest is only read to be discarded.
    if (size <= limit && declared <= limit) chunks.push(chunk);
  }
  if (size > limit) throw tooLarge({ closeConnection: false });
  return Buffer.concat(chunks);
}

function tooLarge({ closeConnection }: { closeConnection: boolean }): ApiError {
  return new ApiError("PayloadTooLarge", `the request body is larger than ${MAX_BODY_BYTES} bytes`, {
    headers: closeConnection ? { connection: "close" } : {},
  });
}
