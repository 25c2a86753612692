import { personActor, tokenActor, type Attribution } from "@/lib/activity/actor";
import type { Caller } from "@/lib/auth/caller";
import { clientAddress } from "@/lib/server/client-address";

// An API request's changes are attributed to its caller (a token, or a staff
// member through the app's pages), from the client's address as the server
// decided it, with the request's User-Agent and id.

// Kept to a length a record can hold without letting a client fill the table.
const USER_AGENT_MAX = 512;

export function requestAttribution(caller: Caller, request: Request, requestId: string): Attribution {
  const actor = caller.kind === "token" ? tokenActor(caller.token) : personActor(caller.user);
  const userAgent = request.headers.get("user-agent");
  return { actor, origin: { clientAddress: clientAddress(request), userAgent: userAgent === null ? null : userAgent.slice(0, USER_AGENT_MAX), requestId } };
}
