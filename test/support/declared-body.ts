import { request as httpRequest } from "node:http";
import { buffer } from "node:stream/consumers";

/**
 * A POST whose headers declare a body of `bytes` that is never sent: the
 * answer can only come from the headers. (Node's fetch, made to upload such a
 * body, loses the early answer to EPIPE whenever the server closes first.)
 */
export function postDeclaring(url: string, headers: Record<string, string>, bytes: number): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers: { ...headers, "content-length": String(bytes) } });
    request.on("error", reject);
    request.on("response", (answer) => {
      const received = Object.entries(answer.headers).flatMap(([name, value]): [string, string][] => (typeof value === "string" ? [[name, value]] : []));
      buffer(answer).then((body) => {
        request.destroy();
        resolve(new Response(body, { status: answer.statusCode, headers: received }));
      }, reject);
    });
    request.flushHeaders();
  });
}
