import { authenticateCaller, type Caller } from "@/lib/auth/sessions/caller";
import { processGlobal } from "@/lib/server/process-global";
import type { Scope } from "@/lib/validations/api-token";

// Access holds while a stream is open (issue 32): a token revoked or expired,
// a session ended, an account deactivated or its second factor demanded ends
// every stream it opened within a second, on every worker and instance.
//
// Each process checks its own streams' credentials against the database,
// every CHECK_MS, by the very check a request meets (authenticateCaller): no
// message between instances is needed, and none can be lost. Streams that
// share a credential (the same token, the same session cookie) share one
// check, so ten thousand streams on one token cost one read per interval.

const CHECK_MS = 400;

/** What a stream was let in by: a scope and, for the owners' pages' stream, an owner's session. */
export type AccessDemand = { scope: Scope; owner?: true };

type Credential = { request: Request; access: AccessDemand; streams: Set<() => void> };

type Watch = { credentials: Map<string, Credential>; timer: NodeJS.Timeout | undefined; checking: boolean };

function watch(): Watch {
  return processGlobal("live.access", () => ({ credentials: new Map(), timer: undefined, checking: false }));
}

// What decides a request's caller (lib/auth/sessions/caller.ts): the credential and, for a session, the origin.
const DECIDING_HEADERS = ["authorization", "cookie", "origin", "host", "sec-fetch-site", "referer", "x-forwarded-host", "x-forwarded-proto"];

/**
 * Ends the stream (calls `end`) once the credentials `request` was accepted
 * with no longer meet `access`; answers the function to call when the stream
 * has ended otherwise.
 */
export function watchAccess(request: Request, access: AccessDemand, end: () => void): () => void {
  const headers = new Headers();
  for (const name of DECIDING_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const key = `${access.scope}${access.owner ? " owner" : ""}\n${[...headers].map(([name, value]) => `${name}:${value}`).join("\n")}`;
  const { credentials } = watch();
  let credential = credentials.get(key);
  if (!credential) {
    credential = { request: new Request(request.url, { headers }), access, streams: new Set() };
    credentials.set(key, credential);
  }
  credential.streams.add(end);
  startChecking();
  const held = credential;
  return () => {
    held.streams.delete(end);
    if (held.streams.size === 0 && credentials.get(key) === held) credentials.delete(key);
  };
}

function startChecking(): void {
  const state = watch();
  if (state.timer) return;
  state.timer = setInterval(() => void checkAll(state), CHECK_MS);
  state.timer.unref();
}

async function checkAll(state: Watch): Promise<void> {
  if (state.checking) return;
  if (state.credentials.size === 0) {
    clearInterval(state.timer);
    state.timer = undefined;
    return;
  }
  state.checking = true;
  try {
    await Promise.all([...state.credentials].map(([key, credential]) => check(state, key, credential)));
  } finally {
    state.checking = false;
  }
}

async function check(state: Watch, key: string, credential: Credential): Promise<void> {
  const refused = await authenticateCaller(credential.request, credential.access.scope).then(
    (caller) => credential.access.owner === true && !isOwner(caller),
    // A refusal ends the streams; a database that cannot answer just now does not (the next check decides).
    (error: unknown) => isRefusal(error),
  );
  if (!refused) return;
  if (state.credentials.get(key) === credential) state.credentials.delete(key);
  for (const end of credential.streams) end();
}

/** Whether the caller is an owner signed in to the staff app (an owner made staff since is not). */
export function isOwner(caller: Caller): boolean {
  return caller.kind === "staff" && caller.user.role === "owner";
}

function isRefusal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
}
