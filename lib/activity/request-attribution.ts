import { originFromHeaders } from "@/lib/activity/action-attribution";
import { type ActingPerson, type ActingToken, personActor, tokenActor, type Attribution } from "@/lib/activity/actor";

// An API request's changes are attributed to its caller (a token, or a staff
// member through the app's pages), from the client's address as the server
// decided it, with the request's User-Agent and id.

/** An API request's caller as the record needs it: a token, or a staff member (the Caller that authenticated the request has these and more). */
export type ActingCaller = { kind: "token"; token: ActingToken } | { kind: "staff"; user: ActingPerson };

export function requestAttribution(caller: ActingCaller, request: Request, requestId: string): Attribution {
  const actor = caller.kind === "token" ? tokenActor(caller.token) : personActor(caller.user);
  return { actor, origin: originFromHeaders((name) => request.headers.get(name), requestId) };
}
