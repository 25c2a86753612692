"use client";

import { InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { NEW_PASSWORD_HINT } from "@/components/sign-in/new-password-hint";
import { signInWithNewPassword } from "@/components/sign-in/sign-in-with-new-password";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { chooseNewPassword } from "@/app/reset-password/[secret]/actions";

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ newPasswordSchema }) => newPasswordSchema), { password: "Password" });

/** A password reset link's form: the new password for the link's account. */
export function NewPasswordForm({ secret, email }: { secret: string; email: string }) {
  const form = useServerForm(CHECKS, {
    mode: "onTouched",
    defaultValues: { password: "" },
    // The secret is the page's URL's, sent as the action's argument; the server opens the link again.
    onSubmit: async (values) => signInWithNewPassword(await chooseNewPassword(secret, values), values.password),
  });

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      {/* For password managers: the account the new password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <InputField form={form} name="password" id="new-password" label="New password" hint={NEW_PASSWORD_HINT} type="password" autoComplete="new-password" required />
      <FormSubmit form={form} pendingLabel="Saving…">
        Set new password
      </FormSubmit>
    </HydratedForm>
  );
}
