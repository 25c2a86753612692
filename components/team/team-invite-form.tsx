"use client";

import { inviteMember } from "@/app/(staff)/team/actions";
import { AccountLinkOnce } from "@/components/team/account-link-once";
import { FormField, InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import type { NewInvitation } from "@/lib/validations/user";
import { ROLES } from "@/lib/validations/user-options";

const DEFAULTS: NewInvitation = { email: "", role: "staff" };

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ newInvitationSchema }) => newInvitationSchema), { email: "Email", role: "Role" });

/**
 * Invites someone to the team; the form checks its fields with the same
 * schema as the server action, in sentences. The invitation's link is shown
 * once, and takes focus (SecretOnce), with whether it was also emailed.
 */
export function TeamInviteForm() {
  const form = useServerForm(CHECKS, {
    defaultValues: DEFAULTS,
    // The server action parses it again, with the same schema: it trusts nothing from the browser.
    onSubmit: (values) => inviteMember(values),
    resetWhenDone: true,
  });
  const { register, errors } = form;

  return (
    <>
      <HydratedForm className="stack" onSubmit={form.submit} noValidate>
        <InputField form={form} name="email" id="invite-email" label="Email" hint="Where the person reads their invitation; their account’s email." type="email" autoComplete="off" spellCheck={false} required />
        <FormField id="invite-role" label="Role" hint="Owners also manage the team and the webhooks." error={errors.role?.message}>
          {(described) => (
            <select {...register("role")} {...described} defaultValue={DEFAULTS.role}>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormSubmit form={form} pendingLabel="Inviting…">
          Invite
        </FormSubmit>
      </HydratedForm>
      <div role="status" className="new-token-status">
        {form.done && <AccountLinkOnce id="new-invitation-link" shown={form.done.created} />}
      </div>
    </>
  );
}
