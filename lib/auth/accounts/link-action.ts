import type { z } from "zod";
import { actionOrigin } from "@/lib/activity/action-attribution";
import type { RequestOrigin } from "@/lib/activity/actor";
import { LinkUnusableError, WeakPasswordError } from "@/lib/auth/account-errors";
import { TooManyLinkAttemptsError, tryLinkFrom } from "@/lib/auth/accounts/link-attempts";
import { requestClientAddress } from "@/lib/server/request-client-address";
import { sentence } from "@/lib/validations/sentence";

/** What a one-time link's server action answers: what went wrong, as a sentence, or the email to sign in with. */
export type LinkActionAnswer = string | { email: string };

/**
 * The server action of a one-time link's form (accepting an invitation,
 * choosing a new password): parses the form's `values` with `schema`, then
 * `act`s on the link whose secret is `secret` (the page's URL already holds
 * it), within the client address's allowance (tryLinkFrom), recorded as from
 * this request. On success, the account's email: the browser signs in with it
 * and the password typed, so no session is made here that the form did not
 * ask for. Else what went wrong, as a sentence: `refusal`'s words for what
 * the action says its own way, else the error's own message where it is
 * written to be shown.
 */
export async function actOnLink<Values>(
  secret: unknown,
  values: unknown,
  schema: z.ZodType<Values>,
  act: (secret: string, values: Values, origin: RequestOrigin) => Promise<{ email: string }>,
  refusal: (error: unknown) => string | undefined = () => undefined,
): Promise<LinkActionAnswer> {
  const parsed = schema.safeParse(values);
  if (!parsed.success) return parsed.error.issues.map((issue) => sentence(issue.message)).join(" ");
  try {
    const origin = await actionOrigin();
    const user = await tryLinkFrom(await requestClientAddress(), () => act(String(secret), parsed.data, origin));
    return { email: user.email };
  } catch (error) {
    const words = refusal(error);
    if (words !== undefined) return words;
    // Each says why in words written to be shown (lib/auth/account-errors.ts, lib/auth/accounts/link-attempts.ts).
    if (error instanceof LinkUnusableError || error instanceof WeakPasswordError || error instanceof TooManyLinkAttemptsError) return sentence(error.message);
    throw error;
  }
}
