"use client";

import { useState } from "react";
import { useWatch } from "react-hook-form";
import { saveProfile } from "@/app/(staff)/account/actions";
import { InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ profileChangeSchema }) => profileChangeSchema), {
  name: "Name",
  email: "Email",
  currentPassword: "Current password",
});

/**
 * A person's own name and email. Changing the email asks for the current
 * password as well (the field appears once the email differs): whoever finds
 * a session left open must not be able to take the account with it.
 */
export function AccountProfileForm({ name, email }: { name: string; email: string }) {
  const [saved, setSaved] = useState({ name, email });
  const form = useServerForm(CHECKS, {
    defaultValues: { name, email, currentPassword: "" },
    async onSubmit(values, { reset }) {
      const result = await saveProfile(values);
      if ("saved" in result) {
        setSaved(result.saved);
        reset({ ...result.saved, currentPassword: "" });
      }
      return result;
    },
  });
  const typedEmail = useWatch({ control: form.control, name: "email" });
  const emailChanges = (typedEmail ?? "").trim().toLowerCase() !== saved.email;

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <InputField form={form} name="name" id="account-name" label="Name" defaultValue={name} type="text" autoComplete="name" required maxLength={100} />
      <InputField form={form} name="email" id="account-email" label="Email" hint="You sign in with it." defaultValue={email} type="email" autoComplete="email" required />
      {emailChanges && (
        <InputField form={form} name="currentPassword" id="account-email-password" label="Current password" hint="Needed to change your email." type="password" autoComplete="current-password" required />
      )}
      <FormSubmit form={form} pendingLabel="Saving…">
        Save name and email
      </FormSubmit>
      <p role="status" className="confirmation">
        {form.done && "Your name and email are saved."}
      </p>
    </HydratedForm>
  );
}
