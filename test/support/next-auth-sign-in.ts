// Signing in as next-auth's own client does, for HTTP tests: a Credentials
// provider posted with the CSRF token and its cookie, json=true, and what came
// back (the session cookie if one was set, and the URL the form is sent to).

export type SignInAnswer = { status: number; url: string; sessionToken: string | undefined };

/** Posts to a Credentials provider as next-auth's client does (CSRF token and cookie, json=true), with the browser's other `cookies` ("name=value; ..."), if any. */
export async function signInThrough(baseUrl: string, provider: string, values: Record<string, string>, cookies = ""): Promise<SignInAnswer> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = [...csrf.headers.getSetCookie().map((each) => each.split(";")[0]), ...(cookies ? [cookies] : [])].join("; ");
  const response = await fetch(`${baseUrl}/api/auth/callback/${provider}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ csrfToken, ...values, json: "true" }),
  });
  const { url } = (await response.json()) as { url: string };
  const session = response.headers.getSetCookie().find((each) => each.startsWith("next-auth.session-token="));
  return { status: response.status, url, sessionToken: session?.split(";")[0]!.slice("next-auth.session-token=".length) };
}

/** The error next-auth sends the form back with (code-needed:<ticket>, wrong-code, CredentialsSignin...), or null. */
export const errorOf = (answer: SignInAnswer) => new URL(answer.url).searchParams.get("error");

/** The ticket the right password answers for an account with a second factor (code-needed:<ticket>), to send with its code to the "code" provider. */
export async function codeTicket(baseUrl: string, email: string, password: string): Promise<string> {
  const error = errorOf(await signInThrough(baseUrl, "credentials", { email, password }));
  if (!error?.startsWith("code-needed:")) throw new Error(`the password answered ${error}, not a code ticket`);
  return error.slice("code-needed:".length);
}
