"use client";

import { useForm } from "react-hook-form";
import type { RecoveryCodesResult } from "@/app/(staff)/account/totp-actions";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { type FieldLabels, showServerErrors, withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import type { TotpConfirmationValues } from "@/lib/validations/user";

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/user").then(({ totpConfirmationSchema }) => totpConfirmationSchema)),
  { code: "Code" },
);

/**
 * One code, from the authenticator app (or, where `recoveryAllowed`, a
 * recovery code), sent to `action`, which answers the new recovery codes.
 */
export function TotpCodeForm(props: {
  id: string;
  label: string;
  hint: string;
  submitLabel: string;
  pendingLabel: string;
  recoveryAllowed: boolean;
  action: (values: TotpConfirmationValues) => Promise<RecoveryCodesResult>;
  onCodes: (codes: string[]) => void;
}) {
  const labels: FieldLabels<TotpConfirmationValues> = { code: props.label };
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<TotpConfirmationValues>({ resolver, defaultValues: { code: "" } });

  async function onSubmit(values: TotpConfirmationValues) {
    const result = await props.action(values);
    if ("recoveryCodes" in result) {
      reset({ code: "" });
      props.onCodes(result.recoveryCodes);
      return;
    }
    showServerErrors(setError, result.errors, labels);
  }

  return (
    <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      <InputField
        id={props.id}
        label={props.label}
        hint={props.hint}
        error={errors.code?.message}
        registration={register("code")}
        type="text"
        autoComplete="one-time-code"
        inputMode={props.recoveryAllowed ? "text" : "numeric"}
        spellCheck={false}
        required
      />
      <FormError message={errors.root?.server?.message} />
      <SubmitButton pending={isSubmitting} pendingLabel={props.pendingLabel}>
        {props.submitLabel}
      </SubmitButton>
    </HydratedForm>
  );
}
