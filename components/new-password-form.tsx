"use client";

import { useForm } from "react-hook-form";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { NEW_PASSWORD_HINT } from "@/components/new-password-hint";
import { withSentences } from "@/components/sentence-resolver";
import { signInWithNewPassword } from "@/components/sign-in-with-new-password";
import { SubmitButton } from "@/components/submit-button";
import { chooseNewPassword } from "@/app/reset-password/[secret]/actions";
import type { NewPasswordValues } from "@/lib/validations/user";

/** Where the new session starts: the plants. */
const PLANTS = "/";

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/user").then(({ newPasswordSchema }) => newPasswordSchema)),
  { password: "Password" },
);

/** A password reset link's form: the new password for the link's account. */
export function NewPasswordForm({ secret, email }: { secret: string; email: string }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewPasswordValues>({ resolver, mode: "onTouched", defaultValues: { password: "" } });

  async function onSubmit(values: NewPasswordValues) {
    // The secret is the page's URL's, sent as the action's argument; the server opens the link again.
    const answer = await chooseNewPassword(secret, values);
    const problem = typeof answer === "string" ? answer : await signInWithNewPassword(answer.email, values.password, PLANTS);
    if (problem) setError("root.server", { message: problem });
  }

  return (
    <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      {/* For password managers: the account the new password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <InputField id="new-password" label="New password" hint={NEW_PASSWORD_HINT} error={errors.password?.message} registration={register("password")} type="password" autoComplete="new-password" required />
      <FormError message={errors.root?.server?.message} />
      <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
        Set new password
      </SubmitButton>
    </HydratedForm>
  );
}
