"use client";

import { useForm } from "react-hook-form";
import { turnOffTotp } from "@/app/(staff)/account/totp-actions";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { type FieldLabels, showServerErrors, withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import type { TotpDisableValues } from "@/lib/validations/user";

const LABELS: FieldLabels<TotpDisableValues> = { currentPassword: "Current password", code: "Code from your app, or a recovery code" };

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/user").then(({ totpDisableSchema }) => totpDisableSchema)),
  LABELS,
);

/** Turning the app off asks for both: an open session alone must not strip the account of its second factor. */
export function TotpDisableForm({ email, onDisabled }: { email: string; onDisabled: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TotpDisableValues>({ resolver, defaultValues: { currentPassword: "", code: "" } });

  async function onSubmit(values: TotpDisableValues) {
    const result = await turnOffTotp(values);
    if ("disabled" in result) {
      onDisabled();
      return;
    }
    showServerErrors(setError, result.errors, LABELS);
  }

  return (
    <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
      <InputField
        id="totp-off-password"
        label={LABELS.currentPassword!}
        error={errors.currentPassword?.message}
        registration={register("currentPassword")}
        type="password"
        autoComplete="current-password"
        required
      />
      <InputField id="totp-off-code" label={LABELS.code!} error={errors.code?.message} registration={register("code")} type="text" autoComplete="one-time-code" spellCheck={false} required />
      <FormError message={errors.root?.server?.message} />
      <SubmitButton pending={isSubmitting} pendingLabel="Turning off…">
        Turn off the authenticator app
      </SubmitButton>
    </HydratedForm>
  );
}
