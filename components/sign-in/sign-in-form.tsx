"use client";

import { useState } from "react";
import { InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { SignInCodeForm } from "@/components/sign-in/sign-in-code-form";
import { tooManySignIns } from "@/components/sign-in/too-many-sign-ins";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { SIGN_IN_CODE_NEEDED, SIGN_IN_RATE_LIMITED, SIGN_IN_SSO_ONLY } from "@/lib/validations/user-options";

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ signInSchema }) => signInSchema), { email: "Email", password: "Password" });

const NOT_LOADED = "You are not signed in: the server could not be reached. Check your connection and try again.";

// The email field's autocomplete names "webauthn" too, so that browsers offer passkeys in its autofill (components/sign-in/passkey-sign-in.tsx).
export function SignInForm({ callbackPath, codeTicket }: { callbackPath: string; codeTicket?: string }) {
  // Set once the password (or a single sign-on, which brings its own: issue 34) was right for a person with an
  // authenticator app: the code step shows in its place.
  const [ticket, setTicket] = useState<string | undefined>(codeTicket);
  const form = useServerForm(CHECKS, {
    defaultValues: { email: "", password: "" },
    async onSubmit(values, { setValue }) {
      // next-auth's client (about 10 kB of gzipped script) loads with the first sign-in, not with the page (issue 20).
      const nextAuth = await import("next-auth/react").catch(() => undefined);
      if (!nextAuth) return NOT_LOADED;
      const result = await nextAuth.signIn("credentials", { ...values, redirect: false });
      const [reason, codeTicket] = (result?.error ?? "").split(":");
      if (reason === SIGN_IN_CODE_NEEDED && codeTicket) {
        // The password has done its part: it leaves the page's state, and the ticket stands for it.
        setValue("password", "");
        setTicket(codeTicket);
        return;
      }
      if (!result?.ok) return signInRefusal(result?.error);
      // A full load, so every server component renders for the new session.
      // callbackPath was checked on the server to be a path on this site.
      window.location.assign(callbackPath);
    },
  });

  if (ticket) {
    return (
      <SignInCodeForm
        ticket={ticket}
        callbackPath={callbackPath}
        onRestart={(message) => {
          setTicket(undefined);
          if (message) form.setError("root.server", { message });
        }}
      />
    );
  }
  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <InputField form={form} name="email" id="sign-in-email" label="Email" type="email" autoComplete="username webauthn" required />
      <InputField form={form} name="password" id="sign-in-password" label="Password" type="password" autoComplete="current-password" required />
      <FormSubmit form={form} pendingLabel="Signing in…">
        Sign in
      </FormSubmit>
    </HydratedForm>
  );
}

/** What to tell the person; a refusal after too many failures says how long to wait, and nothing about whether the account exists. */
function signInRefusal(error: string | null | undefined): string {
  const [reason, seconds] = (error ?? "").split(":");
  if (reason === SIGN_IN_RATE_LIMITED) return tooManySignIns(seconds);
  if (reason === SIGN_IN_SSO_ONLY) return "This store's staff sign in with the company sign-in only: use its button.";
  return "That email and password do not match an account.";
}
