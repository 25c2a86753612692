"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { signIn } from "next-auth/react";
import { useForm } from "react-hook-form";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import { SIGN_IN_RATE_LIMITED, signInSchema, type SignInValues } from "@/lib/validations/user";

export function SignInForm({ callbackPath }: { callbackPath: string }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues>({ resolver: withSentences(zodResolver(signInSchema), { email: "Email", password: "Password" }), defaultValues: { email: "", password: "" } });

  async function onSubmit(values: SignInValues) {
    const result = await signIn("credentials", { ...values, redirect: false });
    if (!result?.ok) {
      setError("root.server", { message: signInRefusal(result?.error) });
      return;
    }
    // A full load, so every server component renders for the new session.
    // callbackPath was checked on the server to be a path on this site.
    window.location.assign(callbackPath);
  }

  const formError = errors.root?.server?.message;
  return (
    <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      <InputField id="sign-in-email" label="Email" error={errors.email?.message} registration={register("email")} type="email" autoComplete="username" required />
      <InputField id="sign-in-password" label="Password" error={errors.password?.message} registration={register("password")} type="password" autoComplete="current-password" required />
      <FormError message={formError} />
      <SubmitButton pending={isSubmitting} pendingLabel="Signing in…">
        Sign in
      </SubmitButton>
    </HydratedForm>
  );
}

/** What to tell the person; a refusal after too many failures says how long to wait, and nothing about whether the account exists. */
function signInRefusal(error: string | null | undefined): string {
  const [reason, seconds] = (error ?? "").split(":");
  if (reason !== SIGN_IN_RATE_LIMITED) return "That email and password do not match an account.";
  const minutes = Math.max(1, Math.ceil(Number(seconds) / 60));
  return `Too many failed sign-ins. Wait ${minutes} minute${minutes === 1 ? "" : "s"}, then try again.`;
}
