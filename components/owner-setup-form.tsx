"use client";

import { useForm } from "react-hook-form";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import { setUpOwner } from "@/app/setup/actions";
import type { OwnerSetupValues } from "@/lib/validations/user";
import { PASSWORD_MIN } from "@/lib/validations/user-options";

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/user").then(({ ownerSetupSchema }) => ownerSetupSchema)),
  { email: "Email", name: "Name", password: "Password" },
);

export function OwnerSetupForm() {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<OwnerSetupValues>({ resolver, mode: "onTouched", defaultValues: { email: "", name: "", password: "" } });

  async function onSubmit(values: OwnerSetupValues) {
    // Sends the raw input: the server action parses it with the same schema.
    const problem = await setUpOwner(values);
    if (problem) setError("root.server", { message: problem });
  }

  const formError = errors.root?.server?.message;
  return (
    <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      <InputField id="setup-email" label="Email" error={errors.email?.message} registration={register("email")} type="email" autoComplete="email" required />
      <InputField id="setup-name" label="Name" error={errors.name?.message} registration={register("name")} type="text" autoComplete="name" required />
      <InputField id="setup-password" label="Password" hint={`At least ${PASSWORD_MIN} characters; a passphrase is best.`} error={errors.password?.message} registration={register("password")} type="password" autoComplete="new-password" required />
      <FormError message={formError} />
      <SubmitButton pending={isSubmitting} pendingLabel="Creating…">
        Create owner account
      </SubmitButton>
    </HydratedForm>
  );
}
