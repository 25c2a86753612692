"use client";

import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { saveProfile } from "@/app/(staff)/account/actions";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { type FieldLabels, showServerErrors, withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import type { ProfileChangeValues } from "@/lib/validations/user";

const LABELS: FieldLabels<ProfileChangeValues> = { name: "Name", email: "Email", currentPassword: "Current password" };

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/user").then(({ profileChangeSchema }) => profileChangeSchema)),
  LABELS,
);

/**
 * A person's own name and email. Changing the email asks for the current
 * password as well (the field appears once the email differs): whoever finds
 * a session left open must not be able to take the account with it.
 */
export function AccountProfileForm({ name, email }: { name: string; email: string }) {
  const [saved, setSaved] = useState({ name, email });
  const [status, setStatus] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ProfileChangeValues>({ resolver, defaultValues: { name, email, currentPassword: "" } });
  const typedEmail = useWatch({ control, name: "email" });
  const emailChanges = (typedEmail ?? "").trim().toLowerCase() !== saved.email;

  async function onSubmit(values: ProfileChangeValues) {
    setStatus(undefined);
    const result = await saveProfile(values);
    if ("saved" in result) {
      setSaved(result.saved);
      reset({ ...result.saved, currentPassword: "" });
      setStatus("Your name and email are saved.");
      return;
    }
    showServerErrors(setError, result.errors, LABELS);
  }

  return (
    <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      <InputField id="account-name" label="Name" error={errors.name?.message} registration={register("name")} defaultValue={name} type="text" autoComplete="name" required maxLength={100} />
      <InputField id="account-email" label="Email" hint="You sign in with it." error={errors.email?.message} registration={register("email")} defaultValue={email} type="email" autoComplete="email" required />
      {emailChanges && (
        <InputField
          id="account-email-password"
          label="Current password"
          hint="Needed to change your email."
          error={errors.currentPassword?.message}
          registration={register("currentPassword")}
          type="password"
          autoComplete="current-password"
          required
        />
      )}
      <FormError message={errors.root?.server?.message} />
      <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
        Save name and email
      </SubmitButton>
      <p role="status" className="confirmation">
        {status}
      </p>
    </HydratedForm>
  );
}
