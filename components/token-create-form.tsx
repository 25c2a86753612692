"use client";

import { useActionState } from "react";
import { createToken, type CreateTokenState } from "@/app/(staff)/tokens/actions";
import { CopyButton } from "@/components/copy-button";
import { FormField } from "@/components/form-field";
import { TOKEN_LIFETIMES, type TokenLifetime } from "@/lib/validations/api-token";

const LIFETIMES = Object.entries(TOKEN_LIFETIMES) as [TokenLifetime, { label: string }][];

export function TokenCreateForm() {
  const [state, action, pending] = useActionState<CreateTokenState, FormData>(createToken, {});
  const errors = state.errors ?? {};
  return (
    <>
      <form className="stack" action={action}>
        <FormField id="token-label" label="Label" hint="What uses this token, e.g. “till sync”." error={errors.label}>
          {(described) => <input {...described} name="label" type="text" autoComplete="off" required maxLength={100} />}
        </FormField>
        <fieldset aria-describedby={errors.scopes ? "token-scopes-error" : undefined}>
          <legend>Scopes</legend>
          <label className="check">
            <input type="checkbox" name="scopes" value="plants:read" defaultChecked /> plants:read (see plants)
          </label>
          <label className="check">
            <input type="checkbox" name="scopes" value="plants:write" /> plants:write (add and change plants)
          </label>
          <p id="token-scopes-error" className="field-error" aria-live="polite">
            {errors.scopes}
          </p>
        </fieldset>
        <FormField id="token-expires" label="Expires after" error={errors.expires}>
          {(described) => (
            <select {...described} name="expires" defaultValue="30d">
              {LIFETIMES.map(([value, { label }]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create token"}
        </button>
      </form>
      <div role="status" className="new-token-status">
        {state.created && (
          <div className="new-token">
            <p>
              <strong>Copy the token “{state.created.label}” now:</strong> it is shown only this once.
            </p>
            <label htmlFor="new-token-value">New API token</label>
            <div className="token-row">
              <input id="new-token-value" type="text" readOnly value={state.created.token} spellCheck={false} onFocus={(event) => event.currentTarget.select()} />
              <CopyButton text={state.created.token} />
            </div>
          </div>
        )}
      </div>
    </>
  );
}
