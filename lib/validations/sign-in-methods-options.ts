// The owners' choice of how staff sign in (issue 34), apart from the schema
// that checks it (sign-in-methods.ts), as the second-factor policy's is, so
// that the Team page does not load zod with the page.

export const SIGN_IN_METHODS = ["all", "sso_only"] as const;
export type SignInMethods = (typeof SIGN_IN_METHODS)[number];

/** How the Team page names each choice. */
export const SIGN_IN_METHODS_LABELS: Record<SignInMethods, string> = {
  all: "Passwords, passkeys and single sign-on",
  sso_only: "Single sign-on only (owners keep their password and passkeys, as a way back when the provider is down)",
};

/** The form's values: as the schema reads them. */
export type SignInMethodsChange = { methods: SignInMethods };
