"use client";

import { InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { NEW_PASSWORD_HINT } from "@/components/sign-in/new-password-hint";
import { signInWithNewPassword } from "@/components/sign-in/sign-in-with-new-password";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { joinTeam } from "@/app/join/[secret]/actions";

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ invitationAcceptanceSchema }) => invitationAcceptanceSchema), { name: "Name", password: "Password" });

/** Accepting an invitation: the email and role are the invitation's, the name and password the invitee's. */
export function JoinTeamForm({ secret, email }: { secret: string; email: string }) {
  const form = useServerForm(CHECKS, {
    mode: "onTouched",
    defaultValues: { name: "", password: "" },
    // The secret is the page's URL's, sent as the action's argument; the server opens the link again.
    onSubmit: async (values) => signInWithNewPassword(await joinTeam(secret, values), values.password),
  });

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      {/* For password managers: the account the new password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <InputField form={form} name="name" id="join-name" label="Name" type="text" autoComplete="name" required />
      <InputField form={form} name="password" id="join-password" label="Password" hint={NEW_PASSWORD_HINT} type="password" autoComplete="new-password" required />
      <FormSubmit form={form} pendingLabel="Joining…">
        Join the team
      </FormSubmit>
    </HydratedForm>
  );
}
