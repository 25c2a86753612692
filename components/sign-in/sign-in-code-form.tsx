"use client";

import { useEffect } from "react";
import { InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { tooManySignIns } from "@/components/sign-in/too-many-sign-ins";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { SIGN_IN_CHALLENGE_EXPIRED, SIGN_IN_RATE_LIMITED, SIGN_IN_WRONG_CODE } from "@/lib/validations/user-options";

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ totpConfirmationSchema }) => totpConfirmationSchema), { code: "Code" });

/**
 * Sign-in's second step, for a person with an authenticator app: the ticket
 * the password step answered (the password itself is gone from the page by
 * now) and a code, sent to next-auth's "code" provider. An expired ticket
 * sends the person back to the password (`onRestart`).
 */
export function SignInCodeForm({ ticket, callbackPath, onRestart }: { ticket: string; callbackPath: string; onRestart: (message: string) => void }) {
  const form = useServerForm(CHECKS, {
    defaultValues: { code: "" },
    async onSubmit(values, { setError }) {
      const nextAuth = await import("next-auth/react").catch(() => undefined);
      if (!nextAuth) return "You are not signed in: the server could not be reached. Check your connection and try again.";
      const result = await nextAuth.signIn("code", { ticket, code: values.code, redirect: false });
      if (result?.ok) {
        window.location.assign(callbackPath);
        return;
      }
      const [reason, seconds] = (result?.error ?? "").split(":");
      if (reason === SIGN_IN_CHALLENGE_EXPIRED) {
        onRestart("That took too long: sign in with your password again.");
        return;
      }
      if (reason === SIGN_IN_RATE_LIMITED) {
        setError("code", { message: tooManySignIns(seconds) }, { shouldFocus: true });
        return;
      }
      const message = reason === SIGN_IN_WRONG_CODE ? "That code is not right, or was already used. Use the code your app shows now." : "You are not signed in. Try again.";
      setError("code", { message }, { shouldFocus: true });
    },
  });
  const { setFocus } = form;
  // The password form's button had focus; it is gone, so the new step takes it.
  useEffect(() => setFocus("code"), [setFocus]);

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate aria-labelledby="sign-in-code-heading">
      <h2 id="sign-in-code-heading">
        Enter a code
      </h2>
      <InputField
        form={form}
        name="code"
        id="sign-in-code"
        label="Code from your authenticator app"
        hint="Lost your phone? Type one of your recovery codes instead."
        type="text"
        autoComplete="one-time-code"
        spellCheck={false}
        required
      />
      <FormSubmit form={form} pendingLabel="Signing in…">
        Sign in
      </FormSubmit>
      <button type="button" className="link-button" onClick={() => onRestart("")}>
        Start again with your password
      </button>
    </HydratedForm>
  );
}
