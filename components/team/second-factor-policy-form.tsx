"use client";

import { saveSecondFactorPolicy } from "@/app/(staff)/team/actions";
import { FormError } from "@/components/forms/form-error";
import { HydratedForm } from "@/components/forms/hydrated-form";
import type { FieldLabels } from "@/components/forms/sentence-resolver";
import { SubmitButton } from "@/components/forms/submit-button";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { SECOND_FACTOR_POLICIES, SECOND_FACTOR_POLICY_LABELS, type SecondFactorPolicy, type SecondFactorPolicyChange } from "@/lib/validations/second-factor-policy-options";

const LABELS: FieldLabels<SecondFactorPolicyChange> = { policy: "Who must have a second factor" };

const CHECKS = formChecks(() => import("@/lib/validations/second-factor-policy").then(({ changeSecondFactorPolicySchema }) => changeSecondFactorPolicySchema), LABELS);

/**
 * The owners' policy (issue 24): who must have a second factor before they can
 * use the staff app. The server refuses a policy the owner does not meet
 * themself, and says so here.
 */
export function SecondFactorPolicyForm({ policy }: { policy: SecondFactorPolicy }) {
  // The action's answer, done or refused, shows in the form's own rows below.
  const form = useServerForm(CHECKS, { defaultValues: { policy }, onSubmit: (values) => saveSecondFactorPolicy(values) });
  const { errors } = form;
  const outcome = form.done;

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <fieldset aria-describedby={errors.policy ? "policy-error" : undefined}>
        <legend>{LABELS.policy}</legend>
        {SECOND_FACTOR_POLICIES.map((value) => (
          <label key={value} className="check">
            <input {...form.register("policy")} type="radio" value={value} defaultChecked={value === policy} /> {SECOND_FACTOR_POLICY_LABELS[value]}
          </label>
        ))}
        <p id="policy-error" className="field-error" aria-live="polite">
          {errors.policy?.message}
        </p>
      </fieldset>
      <div role="status">
        <p className="confirmation">{outcome && "done" in outcome ? outcome.done : ""}</p>
      </div>
      <FormError message={outcome && "error" in outcome ? outcome.error : undefined} />
      <SubmitButton pending={form.pending} pendingLabel="Saving…">
        Save policy
      </SubmitButton>
    </HydratedForm>
  );
}
