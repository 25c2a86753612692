"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { inviteMember, type LinkShown } from "@/app/(staff)/team/actions";
import { AccountLinkOnce } from "@/components/account-link-once";
import { FormError } from "@/components/form-error";
import { FormField, InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { type FieldLabels, showServerErrors, withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import type { NewInvitation } from "@/lib/validations/user";
import { ROLES } from "@/lib/validations/user-options";

type InvitationValues = NewInvitation;

const DEFAULTS: InvitationValues = { email: "", role: "staff" };

/** How the messages name each field (the form's labels). */
const LABELS: FieldLabels<InvitationValues> = { email: "Email", role: "Role" };

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/user").then(({ newInvitationSchema }) => newInvitationSchema)),
  LABELS,
);

/**
 * Invites someone to the team; the form checks its fields with the same
 * schema as the server action, in sentences. The invitation's link is shown
 * once, and takes focus (SecretOnce), with whether it was also emailed.
 */
export function TeamInviteForm() {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<InvitationValues>({ resolver, defaultValues: DEFAULTS });
  const [created, setCreated] = useState<LinkShown>();

  async function onSubmit(values: InvitationValues) {
    setCreated(undefined);
    // The server action parses it again, with the same schema: it trusts nothing from the browser.
    const result = await inviteMember(values);
    if ("created" in result) {
      setCreated(result.created);
      reset(DEFAULTS);
      return;
    }
    showServerErrors(setError, result.errors, LABELS);
  }

  return (
    <>
      <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
        <InputField
          id="invite-email"
          label="Email"
          hint="Where the person reads their invitation; their account’s email."
          error={errors.email?.message}
          registration={register("email")}
          type="email"
          autoComplete="off"
          spellCheck={false}
          required
        />
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
        <FormError message={errors.root?.server?.message} />
        <SubmitButton pending={isSubmitting} pendingLabel="Inviting…">
          Invite
        </SubmitButton>
      </HydratedForm>
      <div role="status" className="new-token-status">
        {created && <AccountLinkOnce id="new-invitation-link" shown={created} />}
      </div>
    </>
  );
}
