"use client";

import { createToken } from "@/app/(staff)/tokens/actions";
import { CheckboxesField, FormField, InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { SecretOnce } from "@/components/shared/secret-once";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import type { NewApiTokenValues } from "@/lib/validations/api-token";
import { TOKEN_LIFETIMES, type TokenLifetime } from "@/lib/validations/api-token-options";

const LIFETIMES = Object.entries(TOKEN_LIFETIMES) as [TokenLifetime, { label: string }][];

const SCOPE_OPTIONS = [
  { value: "plants:read", label: "plants:read (see plants)" },
  { value: "plants:write", label: "plants:write (add and change plants)" },
];

const DEFAULTS: NewApiTokenValues = { label: "", scopes: ["plants:read"], expires: "30d" };

const CHECKS = formChecks(() => import("@/lib/validations/api-token").then(({ newApiTokenSchema }) => newApiTokenSchema), { label: "Label", scopes: "Scopes", expires: "Expiry" });

/**
 * Creates an API token; the form checks its fields with the same schema as the
 * server action, and says what is wrong in sentences. The new token is shown
 * once, and takes focus (SecretOnce).
 */
export function TokenCreateForm() {
  const form = useServerForm(CHECKS, {
    defaultValues: DEFAULTS,
    // The server action parses the values again, with the same schema.
    onSubmit: (values) => createToken(values),
    resetWhenDone: true,
  });
  const { register, errors } = form;
  const created = form.done?.created;

  return (
    <>
      <HydratedForm className="stack" onSubmit={form.submit} noValidate>
        <InputField form={form} name="label" id="token-label" label="Label" hint="What uses this token, e.g. “till sync”." type="text" autoComplete="off" required maxLength={100} />
        <CheckboxesField form={form} name="scopes" id="token-scopes" legend="Scopes" options={SCOPE_OPTIONS} checked={DEFAULTS.scopes} />
        <FormField id="token-expires" label="Expires after" error={errors.expires?.message}>
          {(described) => (
            <select {...register("expires")} {...described} defaultValue={DEFAULTS.expires}>
              {LIFETIMES.map(([value, { label }]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormSubmit form={form} pendingLabel="Creating…">
          Create token
        </FormSubmit>
      </HydratedForm>
      <div role="status" className="new-token-status">
        {created && (
          <SecretOnce id="new-token-value" label="New API token" secret={created.token} what="token">
            <p>
              <strong>Copy the token “{created.label}” now:</strong> it is shown only this once.
            </p>
          </SecretOnce>
        )}
      </div>
    </>
  );
}
