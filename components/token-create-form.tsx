"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { createToken } from "@/app/(staff)/tokens/actions";
import { FormError } from "@/components/form-error";
import { FormField, InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { SecretOnce } from "@/components/secret-once";
import { type FieldLabels, showServerErrors, withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import type { NewApiTokenValues } from "@/lib/validations/api-token";
import { TOKEN_LIFETIMES, type TokenLifetime } from "@/lib/validations/api-token-options";

const LIFETIMES = Object.entries(TOKEN_LIFETIMES) as [TokenLifetime, { label: string }][];

const DEFAULTS: NewApiTokenValues = { label: "", scopes: ["plants:read"], expires: "30d" };

/** How the messages name each field (the form's labels). */
const LABELS: FieldLabels<NewApiTokenValues> = { label: "Label", scopes: "Scopes", expires: "Expiry" };

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/api-token").then(({ newApiTokenSchema }) => newApiTokenSchema)),
  LABELS,
);

/**
 * Creates an API token; the form checks its fields with the same schema as the
 * server action, and says what is wrong in sentences. The new token is shown
 * once, and takes focus (SecretOnce).
 */
export function TokenCreateForm() {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<NewApiTokenValues>({ resolver, defaultValues: DEFAULTS });
  const [created, setCreated] = useState<{ token: string; label: string }>();

  async function onSubmit(values: NewApiTokenValues) {
    setCreated(undefined);
    // Sends the raw input: the server action parses it with the same schema.
    const result = await createToken(values);
    if ("created" in result) {
      setCreated(result.created);
      reset(DEFAULTS);
      return;
    }
    showServerErrors(setError, result.errors, LABELS);
  }

  return (
    <>
      <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
        <InputField id="token-label" label="Label" hint="What uses this token, e.g. “till sync”." error={errors.label?.message} registration={register("label")} type="text" autoComplete="off" required maxLength={100} />
        <fieldset aria-describedby={errors.scopes ? "token-scopes-error" : undefined}>
          <legend>Scopes</legend>
          <label className="check">
            <input {...register("scopes")} type="checkbox" value="plants:read" defaultChecked={DEFAULTS.scopes.includes("plants:read")} /> plants:read (see plants)
          </label>
          <label className="check">
            <input {...register("scopes")} type="checkbox" value="plants:write" defaultChecked={DEFAULTS.scopes.includes("plants:write")} /> plants:write (add and change plants)
          </label>
          <p id="token-scopes-error" className="field-error" aria-live="polite">
            {errors.scopes?.message}
          </p>
        </fieldset>
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
        <FormError message={errors.root?.server?.message} />
        <SubmitButton pending={isSubmitting} pendingLabel="Creating…">
          Create token
        </SubmitButton>
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
