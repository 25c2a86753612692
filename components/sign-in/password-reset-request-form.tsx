"use client";

import { FormError } from "@/components/forms/form-error";
import { InputField } from "@/components/forms/form-field";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { askForPasswordReset } from "@/app/forgot-password/actions";

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ passwordResetRequestSchema }) => passwordResetRequestSchema), { email: "Email" });

/** "Forgot your password?": the answer is the server's, the same whether or not an account has the email. */
export function PasswordResetRequestForm() {
  const form = useServerForm(CHECKS, {
    defaultValues: { email: "" },
    async onSubmit(values) {
      const answer = await askForPasswordReset(values);
      return "problem" in answer ? answer.problem : answer;
    },
  });

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <InputField form={form} name="email" id="reset-email" label="Email" type="email" autoComplete="username" required />
      <FormError message={form.formError} />
      {/* Always present, so screen readers announce the answer the moment it appears. */}
      <p className="confirmation" role="status">
        {form.done?.sent}
      </p>
      <SubmitButton pending={form.pending} pendingLabel="Sending…">
        Send me a link
      </SubmitButton>
    </HydratedForm>
  );
}
