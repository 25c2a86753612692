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
import { joinTeam } from "@/app/join/[secret]/actions";
import type { InvitationAcceptanceValues } from "@/lib/validations/user";

/** Where the new session starts: the plants. */
const PLANTS = "/";

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/user").then(({ invitationAcceptanceSchema }) => invitationAcceptanceSchema)),
  { name: "Name", password: "Password" },
);

/** Accepting an invitation: the email and role are the invitation's, the name and password the invitee's. */
export function JoinTeamForm({ secret, email }: { secret: string; email: string }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<InvitationAcceptanceValues>({ resolver, mode: "onTouched", defaultValues: { name: "", password: "" } });

  async function onSubmit(values: InvitationAcceptanceValues) {
    // The secret is the page's URL's, sent as the action's argument; the server opens the link again.
    const answer = await joinTeam(secret, values);
    const problem = typeof answer === "string" ? answer : await signInWithNewPassword(answer.email, values.password, PLANTS);
    if (problem) setError("root.server", { message: problem });
  }

  return (
    <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      {/* For password managers: the account the new password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <InputField id="join-name" label="Name" error={errors.name?.message} registration={register("name")} type="text" autoComplete="name" required />
      <InputField id="join-password" label="Password" hint={NEW_PASSWORD_HINT} error={errors.password?.message} registration={register("password")} type="password" autoComplete="new-password" required />
      <FormError message={errors.root?.server?.message} />
      <SubmitButton pending={isSubmitting} pendingLabel="Joining…">
        Join the team
      </SubmitButton>
    </HydratedForm>
  );
}
