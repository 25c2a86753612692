"use client";

import type { RecoveryCodesResult } from "@/app/(staff)/account/totp-actions";
import { InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { showServerErrors } from "@/components/forms/sentence-resolver";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import type { TotpConfirmationValues } from "@/lib/validations/user";

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ totpConfirmationSchema }) => totpConfirmationSchema), { code: "Code" });

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
  const form = useServerForm(CHECKS, {
    defaultValues: { code: "" },
    async onSubmit(values, { reset, setError }) {
      const result = await props.action(values);
      if ("recoveryCodes" in result) {
        reset({ code: "" });
        props.onCodes(result.recoveryCodes);
        return;
      }
      // The server's messages name the field as this form's label does, not as "Code".
      showServerErrors(setError, result.errors, { code: props.label });
    },
  });

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <InputField
        form={form}
        name="code"
        id={props.id}
        label={props.label}
        hint={props.hint}
        type="text"
        autoComplete="one-time-code"
        inputMode={props.recoveryAllowed ? "text" : "numeric"}
        spellCheck={false}
        required
      />
      <FormSubmit form={form} pendingLabel={props.pendingLabel}>
        {props.submitLabel}
      </FormSubmit>
    </HydratedForm>
  );
}
