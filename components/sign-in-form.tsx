"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { signIn } from "next-auth/react";
import { useForm } from "react-hook-form";
import { FormError } from "@/components/form-error";
import { FormField } from "@/components/form-field";
import { signInSchema, type SignInValues } from "@/lib/validations/user";

export function SignInForm({ callbackPath }: { callbackPath: string }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues>({ resolver: zodResolver(signInSchema), defaultValues: { email: "", password: "" } });

  async function onSubmit(values: SignInValues) {
    const result = await signIn("credentials", { ...values, redirect: false });
    if (!result?.ok) {
      setError("root.server", { message: "That email and password do not match an account." });
      return;
    }
    // A full load, so every server component renders for the new session.
    // callbackPath was checked on the server to be a path on this site.
    window.location.assign(callbackPath);
  }

  const formError = errors.root?.server?.message;
  return (
    <form className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      <FormField id="sign-in-email" label="Email" error={errors.email?.message}>
        {(described) => <input {...register("email")} {...described} type="email" autoComplete="username" required />}
      </FormField>
      <FormField id="sign-in-password" label="Password" error={errors.password?.message}>
        {(described) => <input {...register("password")} {...described} type="password" autoComplete="current-password" required />}
      </FormField>
      <FormError message={formError} />
      <button type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
