"use client";

import { InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { setUpOwner } from "@/app/setup/actions";
import { PASSWORD_MIN } from "@/lib/validations/user-options";

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ ownerSetupSchema }) => ownerSetupSchema), { email: "Email", name: "Name", password: "Password" });

export function OwnerSetupForm() {
  const form = useServerForm(CHECKS, {
    mode: "onTouched",
    defaultValues: { email: "", name: "", password: "" },
    // The server action parses the values again, with the same schema.
    onSubmit: (values) => setUpOwner(values),
  });

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <InputField form={form} name="email" id="setup-email" label="Email" type="email" autoComplete="email" required />
      <InputField form={form} name="name" id="setup-name" label="Name" type="text" autoComplete="name" required />
      <InputField form={form} name="password" id="setup-password" label="Password" hint={`At least ${PASSWORD_MIN} characters; a passphrase is best.`} type="password" autoComplete="new-password" required />
      <FormSubmit form={form} pendingLabel="Creating…">
        Create owner account
      </FormSubmit>
    </HydratedForm>
  );
}
