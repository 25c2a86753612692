"use client";

import { saveSignInMethods } from "@/app/(staff)/team/actions";
import { FormError } from "@/components/forms/form-error";
import { HydratedForm } from "@/components/forms/hydrated-form";
import type { FieldLabels } from "@/components/forms/sentence-resolver";
import { SubmitButton } from "@/components/forms/submit-button";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { SIGN_IN_METHODS, SIGN_IN_METHODS_LABELS, type SignInMethods, type SignInMethodsChange } from "@/lib/validations/sign-in-methods-options";

const LABELS: FieldLabels<SignInMethodsChange> = { methods: "How staff sign in" };

const CHECKS = formChecks(() => import("@/lib/validations/sign-in-methods").then(({ changeSignInMethodsSchema }) => changeSignInMethodsSchema), LABELS);

/**
 * How staff sign in (issue 34): every way, or the company sign-in only. Only
 * offered while single sign-on is configured (the server refuses it
 * otherwise, and says so here); owners keep their own ways in either way.
 */
export function SignInMethodsForm({ methods, ssoConfigured }: { methods: SignInMethods; ssoConfigured: boolean }) {
  // The action's answer, done or refused, shows in the form's own rows below.
  const form = useServerForm(CHECKS, { defaultValues: { methods }, onSubmit: (values) => saveSignInMethods(values) });
  const { errors } = form;
  const outcome = form.done;

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <fieldset aria-describedby={errors.methods ? "sign-in-methods-error" : undefined}>
        <legend>{LABELS.methods}</legend>
        {SIGN_IN_METHODS.map((value) => (
          <label key={value} className="check">
            <input {...form.register("methods")} type="radio" value={value} defaultChecked={value === methods} disabled={value === "sso_only" && !ssoConfigured && methods !== "sso_only"} /> {SIGN_IN_METHODS_LABELS[value]}
          </label>
        ))}
        <p id="sign-in-methods-error" className="field-error" aria-live="polite">
          {errors.methods?.message}
        </p>
      </fieldset>
      <div role="status">
        <p className="confirmation">{outcome && "done" in outcome ? outcome.done : ""}</p>
      </div>
      <FormError message={outcome && "error" in outcome ? outcome.error : undefined} />
      <SubmitButton pending={form.pending} pendingLabel="Saving…">
        Save
      </SubmitButton>
    </HydratedForm>
  );
}
