"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { savePassword } from "@/app/(staff)/account/actions";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { type FieldLabels, showServerErrors, withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import type { PasswordChangeValues } from "@/lib/validations/user";
import { PASSWORD_MIN } from "@/lib/validations/user-options";

const LABELS: FieldLabels<PasswordChangeValues> = { currentPassword: "Current password", newPassword: "New password" };

const DEFAULTS: PasswordChangeValues = { currentPassword: "", newPassword: "" };

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/user").then(({ passwordChangeSchema }) => passwordChangeSchema)),
  LABELS,
);

/**
 * A new password, given the current one. Whether it is too easy to guess is
 * decided on the server, whose dictionaries stay out of the page; the answer
 * says why. Saved, it signs the person out everywhere else.
 */
export function PasswordChangeForm({ email }: { email: string }) {
  const [status, setStatus] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<PasswordChangeValues>({ resolver, defaultValues: DEFAULTS });

  async function onSubmit(values: PasswordChangeValues) {
    setStatus(undefined);
    const result = await savePassword(values);
    if ("changed" in result) {
      reset(DEFAULTS);
      setStatus("Your password is changed. You are signed out everywhere else; you stay signed in here.");
      return;
    }
    showServerErrors(setError, result.errors, LABELS);
  }

  return (
    <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      {/* For password managers: which account the new password belongs to. */}
      <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
      <InputField id="current-password" label="Current password" error={errors.currentPassword?.message} registration={register("currentPassword")} type="password" autoComplete="current-password" required />
      <InputField
        id="new-password"
        label="New password"
        hint={`At least ${PASSWORD_MIN} characters; a few unrelated words are easy to remember and hard to guess.`}
        error={errors.newPassword?.message}
        registration={register("newPassword")}
        type="password"
        autoComplete="new-password"
        required
      />
      <FormError message={errors.root?.server?.message} />
      <SubmitButton pending={isSubmitting} pendingLabel="Changing…">
        Change password
      </SubmitButton>
      <p role="status" className="confirmation">
        {status}
      </p>
    </HydratedForm>
  );
}
