import { type ContentType, parse as parseMediaType } from "content-type";
import { ApiError } from "@/lib/api-error";
import { parseExactJson } from "@/lib/exact-json";

export const MAX_BODY_BYTES = 16 * 1024;

// A 413 sent while the client is still uploading breaks its connection: Node's
// own client then loses the answer or the next request on that keep-alive
// socket. Reading and discarding up to this much lets the client read the 413
// and reuse the connection; past it, the connection is closed instead.
const MAX_DISCARD_BYTES = 1024 * 1024;

/**
 * Reads a request's JSON body without trusting it: the media type must be
 * application/json in UTF-8 (415 otherwise), at most MAX_BODY_BYTES are read
 * (413 past that, whatever Content-Length claims), and numbers keep every digit.
 * request.json() must not be used: it rounds ids above 2^53.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  requireJsonMediaType(request.headers.get("content-type"));
  const bytes = await readAtMost(request, MAX_BODY_BYTES);
  if (bytes.byteLength === 0) throw new ApiError(400, "the request body is empty; send a JSON object");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, "the request body is not valid UTF-8");
  }
  try {
    return parseExactJson(text);
  } catch (error) {
    // lossless-json names the problem and its position; anything else here
    // is a stack overflow from absurd nesting.
    const reason = error instanceof SyntaxError ? error.message : "it is nested too deeply";
    throw new ApiError(400, `the request body is not valid JSON: ${reason}`);
  }
}

function requireJsonMediaType(header: string | null): void {
  const expected = "Content-Type must be application/json (charset utf-8)";
  if (header === null) throw new ApiError(415, `the request has no Content-Type; ${expected}`);
  let parsed: ContentType;
  try {
    parsed = parseMediaType(header);
  } catch {
    throw new ApiError(415, `the Content-Type header is malformed; ${expected}`);
  }
  if (parsed.type !== "application/json") throw new ApiError(415, `unsupported media type ${parsed.type}; ${expected}`);
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== "utf-8") throw new ApiError(415, `unsupported charset ${charset}; ${expected}`);
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
  return new ApiError(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`, {
    headers: closeConnection ? { connection: "close" } : {},
  });
}
