import { headers } from "next/headers";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/client-address";

/**
 * The address of the client this page or server action answers, as the
 * server decided it (lib/server/client-address.ts); "unknown" under `next dev`,
 * which runs without that server.
 */
export async function requestClientAddress(): Promise<string> {
  return (await headers()).get(CLIENT_ADDRESS_HEADER) ?? "unknown";
}
