import type { Attribution } from "@/lib/activity/actor";

/** Who the tests' direct writes are attributed to: an operator at the CLI, as a script run beside the app would be. */
export const TEST_BY: Attribution = { actor: { kind: "cli", osUser: "test" }, origin: null };
