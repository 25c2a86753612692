"use client";

import { turnOffTotp } from "@/app/(staff)/account/totp-actions";
import { InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import type { FieldLabels } from "@/components/forms/sentence-resolver";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import type { TotpDisableValues } from "@/lib/validations/user";

const LABELS: FieldLabels<TotpDisableValues> = { currentPassword: "Current password", code: "Code from your app, or a recovery code" };

const CHECKS = formChecks(() => import("@/lib/validations/user").then(({ totpDisableSchema }) => totpDisableSchema), LABELS);

/** Turning the app off asks for both: an open session alone must not strip the account of its second factor. */
export function TotpDisableForm({ email, onDisabled }: { email: string; onDisabled: () => void }) {
  const form = useServerForm(CHECKS, {
    defaultValues: { currentPassword: "", code: "" },
    async onSubmit(values) {
      const result = await turnOffTotp(values);
      if (!("disabled" in result)) return result;
      onDisabled();
    },
  });

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
      <InputField form={form} name="currentPassword" id="totp-off-password" label={LABELS.currentPassword!} type="password" autoComplete="current-password" required />
      <InputField form={form} name="code" id="totp-off-code" label={LABELS.code!} type="text" autoComplete="one-time-code" spellCheck={false} required />
      <FormSubmit form={form} pendingLabel="Turning off…">
        Turn off the authenticator app
      </FormSubmit>
    </HydratedForm>
  );
}
