"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { FormError } from "@/components/form-error";
import { FormField } from "@/components/form-field";
import { setUpOwner } from "@/app/setup/actions";
import { PASSWORD_MIN, ownerSetupSchema, type OwnerSetupValues } from "@/lib/validations/user";

export function OwnerSetupForm() {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<OwnerSetupValues>({ resolver: zodResolver(ownerSetupSchema), mode: "onTouched", defaultValues: { email: "", name: "", password: "" } });

  async function onSubmit(values: OwnerSetupValues) {
    // Sends the raw input: the server action parses it with the same schema.
    const problem = await setUpOwner(values);
    if (problem) setError("root.server", { message: problem });
  }

  const formError = errors.root?.server?.message;
  return (
    <form className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      <FormField id="setup-email" label="Email" error={errors.email?.message}>
        {(described) => <input {...register("email")} {...described} type="email" autoComplete="email" required />}
      </FormField>
      <FormField id="setup-name" label="Name" error={errors.name?.message}>
        {(described) => <input {...register("name")} {...described} type="text" autoComplete="name" required />}
      </FormField>
      <FormField id="setup-password" label="Password" hint={`At least ${PASSWORD_MIN} characters; a passphrase is best.`} error={errors.password?.message}>
        {(described) => <input {...register("password")} {...described} type="password" autoComplete="new-password" required />}
      </FormField>
      <FormError message={formError} />
      <button type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Creating…" : "Create owner account"}
      </button>
    </form>
  );
}
