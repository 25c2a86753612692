"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import { askForPasswordReset } from "@/app/forgot-password/actions";
import type { PasswordResetRequestValues } from "@/lib/validations/user";

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/user").then(({ passwordResetRequestSchema }) => passwordResetRequestSchema)),
  { email: "Email" },
);

/** "Forgot your password?": the answer is the server's, the same whether or not an account has the email. */
export function PasswordResetRequestForm() {
  const [sent, setSent] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PasswordResetRequestValues>({ resolver, defaultValues: { email: "" } });

  async function onSubmit(values: PasswordResetRequestValues) {
    setSent(undefined);
    const answer = await askForPasswordReset(values);
    if ("problem" in answer) setError("root.server", { message: answer.problem });
    else setSent(answer.sent);
  }

  return (
    <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      <InputField id="reset-email" label="Email" error={errors.email?.message} registration={register("email")} type="email" autoComplete="username" required />
      <FormError message={errors.root?.server?.message} />
      {/* Always present, so screen readers announce the answer the moment it appears. */}
      <p className="confirmation" role="status">
        {sent}
      </p>
      <SubmitButton pending={isSubmitting} pendingLabel="Sending…">
        Send me a link
      </SubmitButton>
    </HydratedForm>
  );
}
