import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { Webhook } from "standardwebhooks";
import { parseRetryAfter } from "@/lib/webhooks/retry-delay";
import { connectRefusal, RefusedAddressError, targetLookup, urlHost } from "@/lib/webhooks/target-address";

// One attempt at one delivery, as Standard Webhooks 1.0 describes it: a POST of
// the event's JSON, with webhook-id (the event's id, the same on every retry,
// so a receiver can drop a repeat), webhook-timestamp (this attempt's time, so
// a receiver can refuse a replay) and webhook-signature (v1, HMAC-SHA256 of
// id.timestamp.body under each signing secret, space-separated: two during a
// rotation).
//
// Where the request goes is checked again here, by the rules that let the
// endpoint be saved (lib/webhooks/target-address.ts): the URL's scheme, and
// the address the socket connects to, after DNS (the request's own lookup),
// so a name that resolves to a public address when the endpoint is saved and
// to 127.0.0.1 now (DNS rebinding) reaches nothing. A URL that names an
// address is judged before the request, since no lookup sees it. Node's
// fetch (undici) takes no such lookup per request, hence node:http.

export type WebhookMessage = {
  url: string;
  /** The event's id: msg_…, the webhook-id header. */
  eventId: string;
  body: string;
  /** Secrets in whsec_ form; each signs the message. */
  secrets: readonly string[];
};

export type AttemptOutcome = {
  /** The receiver's HTTP status; absent when no answer came. */
  status?: number;
  /** How long the receiver asked us to wait (Retry-After), in ms. */
  retryAfterMs?: number;
  /** Why the attempt failed, for the delivery's record; absent on a 2xx. */
  error?: string;
  /** True when the target rules forbade the request: nothing was sent. */
  refused?: true;
  durationMs: number;
};

export type SendOptions = {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** Cuts the attempt short (the worker stopping); it then fails with `aborted`. */
  signal?: AbortSignal;
  /** The attempt's time, as unix milliseconds (for tests); now by default. */
  now?: number;
};

export const USER_AGENT = "PlantStore-Webhooks/1.0 (Standard Webhooks)";

// What is kept of a receiver's answer: enough for a short error message; the
// rest is not read, whatever the receiver sends.
const MAX_RESPONSE_BYTES = 4 * 1024;
const MAX_ERROR_BODY_CHARS = 200;

/** The Standard Webhooks headers of one attempt made at `now` (unix ms). */
export function webhookHeaders(message: Pick<WebhookMessage, "eventId" | "body" | "secrets">, now: number): Record<string, string> {
  const seconds = Math.floor(now / 1000);
  const at = new Date(seconds * 1000);
  return {
    "webhook-id": message.eventId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": message.secrets.map((secret) => new Webhook(secret).sign(message.eventId, at, message.body)).join(" "),
  };
}

/** Sends one attempt; never throws: every failure is an outcome with an error. */
export async function sendWebhook(message: WebhookMessage, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const finish = (outcome: Omit<AttemptOutcome, "durationMs">): AttemptOutcome => ({ ...outcome, durationMs: Math.round(performance.now() - started) });

  const url = URL.canParse(message.url) ? new URL(message.url) : undefined;
  const schemes = options.allowPrivateTargets ? ["https:", "http:"] : ["https:"];
  if (!url || !schemes.includes(url.protocol)) return finish({ refused: true, error: "refused: the endpoint's URL must be an https:// URL" });
  if (url.username || url.password) return finish({ refused: true, error: "refused: the endpoint's URL must not carry a user name or password" });
  const host = urlHost(url);
  const refused = !options.allowPrivateTargets && isIP(host) ? connectRefusal(host) : undefined;
  if (refused) return finish(describeFailure(refused, options.timeoutMs));

  let headers: Record<string, string>;
  try {
    headers = webhookHeaders(message, options.now ?? Date.now());
  } catch (error) {
    return finish({ error: `the message could not be signed: ${error instanceof Error ? error.message : String(error)}` });
  }
  try {
    const answer = await exchange(url, message.body, headers, options);
    return finish(judge(answer));
  } catch (error) {
    return finish(describeFailure(error, options.timeoutMs));
  }
}

type Answer = { status: number; retryAfter?: string; text: string };

class AttemptTimeout extends Error {
  override name = "AttemptTimeout";
}
class AttemptAborted extends Error {
  override name = "AttemptAborted";
}

/** The request and as much of the answer as we read, within the time limit for the whole exchange. */
function exchange(url: URL, body: string, signed: Record<string, string>, { timeoutMs, allowPrivateTargets, signal }: SendOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const request = send(url, {
      method: "POST",
      // No pooled connections: each attempt connects afresh, so each connection's address is
      // checked, and an attempt never fails on a connection the receiver has just closed.
      agent: false,
      lookup: allowPrivateTargets ? undefined : targetLookup,
      headers: {
        ...signed,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "user-agent": USER_AGENT,
      },
    });
    let answered: Answer | undefined;
    const chunks: Buffer[] = [];
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      request.destroy();
    };
    const timer = setTimeout(() => {
      if (answered) {
        settle();
        resolve({ ...answered, text: Buffer.concat(chunks).toString("utf8") });
      } else {
        request.destroy(new AttemptTimeout());
      }
    }, timeoutMs);
    const abort = () => request.destroy(new AttemptAborted());
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });

    // Once the status has come, the receiver has the message: whatever cuts the body short, the status stands.
    request.on("error", (error) => {
      settle();
      if (answered) resolve(answered);
      else reject(error);
    });
    request.on("response", (response: IncomingMessage) => {
      let size = 0;
      answered = { status: response.statusCode ?? 0, retryAfter: header(response, "retry-after"), text: "" };
      const done = () => {
        if (!answered) return;
        answered.text = Buffer.concat(chunks).toString("utf8");
        settle();
        resolve(answered);
      };
      // A body that is slow or endless is cut off at the time limit or the size limit, without changing the outcome.
      response.on("data", (chunk: Buffer) => {
        if (size >= MAX_RESPONSE_BYTES) return;
        chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
        size += chunk.length;
        if (size >= MAX_RESPONSE_BYTES) done();
      });
      response.on("end", done);
      response.on("error", done);
    });
    request.end(body);
  });
}

function header(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function judge({ status, retryAfter, text }: Answer): Omit<AttemptOutcome, "durationMs"> {
  if (status >= 200 && status < 300) return { status };
  const retryAfterMs = parseRetryAfter(retryAfter);
  const outcome = retryAfterMs === undefined ? { status } : { status, retryAfterMs };
  // Stripe, Svix and GitHub do not follow a webhook's redirects: the owner should fix the URL,
  // and a redirect could otherwise lead the request to a target the rules forbid.
  if (status >= 300 && status < 400) return { ...outcome, error: `the endpoint answered ${status}; redirects are not followed, set the endpoint's URL to where it redirects` };
  const excerpt = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim().slice(0, MAX_ERROR_BODY_CHARS);
  return { ...outcome, error: excerpt ? `the endpoint answered ${status}: ${excerpt}` : `the endpoint answered ${status}` };
}

function describeFailure(error: unknown, timeoutMs: number): Omit<AttemptOutcome, "durationMs"> {
  if (error instanceof AttemptTimeout) return { error: `no answer within ${timeoutMs} ms` };
  if (error instanceof AttemptAborted) return { error: "aborted: the worker stopped before the endpoint answered" };
  if (error instanceof RefusedAddressError) return { refused: true, error: `refused: ${error.message}` };
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof Error && "code" in error && typeof error.code === "string" ? `${error.code}: ` : "";
  return { error: `the request failed: ${code}${message}` };
}
