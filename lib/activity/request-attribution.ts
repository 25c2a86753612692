import { originFromHeaders } from "@/lib/activity/action-attribution";
import { personActor, tokenActor, type Attribution } from "@/lib/activity/actor";
import type { Caller } from "@/lib/auth/caller";

// An API request's changes are attributed to its caller (a token, or a staff
// member through the app's pages), from the client's address as the server
// decided it, with the request's User-Agent and id.

export function requestAttribution(caller: Caller, request: Request, requestId: string): Attribution {
  const actor = caller.kind === "token" ? tokenActor(caller.token) : personActor(caller.user);
  return { actor, origin: originFromHeaders((name) => request.headers.get(name), requestId) };
}
