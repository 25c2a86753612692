"use client";

import { savePassword } from "@/app/(staff)/account/actions";
import { InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import type { PasswordChangeValues } from "@/lib/validations/user";
import { PASSWORD_MIN } from "@/lib/validations/user-options";

const DEFAULTS: PasswordChangeValues = { currentPassword: "", newPassword: "" };

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ passwordChangeSchema }) => passwordChangeSchema), { currentPassword: "Current password", newPassword: "New password" });

/**
 * A new password, given the current one. Whether it is too easy to guess is
 * decided on the server, whose dictionaries stay out of the page; the answer
 * says why. Saved, it signs the person out everywhere else.
 */
export function PasswordChangeForm({ email }: { email: string }) {
  const form = useServerForm(CHECKS, { defaultValues: DEFAULTS, onSubmit: (values) => savePassword(values), resetWhenDone: true });

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      {/* For password managers: which account the new password belongs to. */}
      <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
      <InputField form={form} name="currentPassword" id="current-password" label="Current password" type="password" autoComplete="current-password" required />
      <InputField
        form={form}
        name="newPassword"
        id="new-password"
        label="New password"
        hint={`At least ${PASSWORD_MIN} characters; a few unrelated words are easy to remember and hard to guess.`}
        type="password"
        autoComplete="new-password"
        required
      />
      <FormSubmit form={form} pendingLabel="Changing…">
        Change password
      </FormSubmit>
      <p role="status" className="confirmation">
        {form.done && "Your password is changed. You are signed out everywhere else; you stay signed in here."}
      </p>
    </HydratedForm>
  );
}
