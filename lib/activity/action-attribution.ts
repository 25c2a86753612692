import { headers } from "next/headers";
import { type ActingPerson, personActor, type Attribution, type RequestOrigin } from "@/lib/activity/actor";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/client-address";

// A staff page's server action is attributed to its signed-in person, from the
// client's address as the server decided it and the request's User-Agent.
// Pages have no request id of their own (only API answers carry X-Request-Id),
// so their records have none.

// Kept to a length a record can hold without letting a client fill the table.
export const USER_AGENT_MAX = 512;

/** The origin of a request from its headers: the server-decided client address and a bounded User-Agent. */
export function originFromHeaders(get: (name: string) => string | null | undefined, requestId: string | null): RequestOrigin {
  const userAgent = get("user-agent") ?? null;
  return { clientAddress: get(CLIENT_ADDRESS_HEADER) ?? null, userAgent: userAgent === null ? null : userAgent.slice(0, USER_AGENT_MAX), requestId };
}

/** Where this server action or page's request came from; for the pages whose person is not known until the change is made (/join, /reset-password, /setup). */
export async function actionOrigin(): Promise<RequestOrigin> {
  const store = await headers();
  return originFromHeaders((name) => store.get(name), null);
}

/** Who is acting in this server action or page, and from where. */
export async function actionAttribution(user: ActingPerson): Promise<Attribution> {
  return { actor: personActor(user), origin: await actionOrigin() };
}
