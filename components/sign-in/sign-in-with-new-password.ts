const NOT_SIGNED_IN = "Your password is set, but you could not be signed in just now: sign in with your email and that password.";

/**
 * Signs in with the password just chosen (joining, or a reset) and opens
 * `destination` (a path on this site) with a full load, so that every server component renders for the new
 * session; else what to tell the person. next-auth's client loads now, not
 * with the page (issue 20).
 */
export async function signInWithNewPassword(email: string, password: string, destination: string): Promise<string | undefined> {
  const nextAuth = await import("next-auth/react").catch(() => undefined);
  const result = await nextAuth?.signIn("credentials", { email, password, redirect: false });
  if (!result?.ok) return NOT_SIGNED_IN;
  window.location.assign(destination);
  return undefined;
}
