const NOT_SIGNED_IN = "Your password is set, but you could not be signed in just now: sign in with your email and that password.";

/** Where the new session starts: the plants. */
const PLANTS = "/";

/**
 * After a one-time link's server action (joining, a reset): what it refused,
 * as it worded it; or, once it answered the account's email, signs in with
 * that and the password just chosen, and opens the plants; else what to
 * tell the person. next-auth's client loads now, not with the page (issue 20).
 */
export async function signInWithNewPassword(answer: string | { email: string }, password: string): Promise<string | undefined> {
  if (typeof answer === "string") return answer;
  const nextAuth = await import("next-auth/react").catch(() => undefined);
  const result = await nextAuth?.signIn("credentials", { email: answer.email, password, redirect: false });
  if (!result?.ok) return NOT_SIGNED_IN;
  // A full load, not the router's: every server component renders anew for the new session.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign(PLANTS);
  return undefined;
}
