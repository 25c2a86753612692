import { userInfo } from "node:os";
import { cliActor, type Attribution } from "@/lib/activity/actor";

// An operator CLI's changes are attributed to "the CLI", named by the OS user
// running it where the OS can say (a container's uid may have no name).

export function cliAttribution(): Attribution {
  let osUser: string | null = null;
  try {
    osUser = userInfo().username || null;
  } catch {
    // No passwd entry for this uid: the record says "the CLI" without a name.
  }
  return { actor: cliActor(osUser), origin: null };
}
