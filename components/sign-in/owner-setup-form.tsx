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
  const { register, errors } = form;

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <InputField id="setup-email" label="Email" error={errors.email?.message} registration={register("email")} type="email" autoComplete="email" required />
      <InputField id="setup-name" label="Name" error={errors.name?.message} registration={register("name")} type="text" autoComplete="name" required />
      <InputField id="setup-password" label="Password" hint={`At least ${PASSWORD_MIN} characters; a passphrase is best.`} error={errors.password?.message} registration={register("password")} type="password" autoComplete="new-password" required />
      <FormSubmit form={form} pendingLabel="Creating…">
        Create owner account
      </FormSubmit>
    </HydratedForm>
  );
}
