"use client";

import { saveSecondFactorPolicy } from "@/app/(staff)/team/actions";
import { ChoiceForm } from "@/components/forms/choice-form";
import type { FieldLabels } from "@/components/forms/sentence-resolver";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { SECOND_FACTOR_POLICIES, SECOND_FACTOR_POLICY_LABELS, type SecondFactorPolicy, type SecondFactorPolicyChange } from "@/lib/validations/second-factor-policy-options";

const LABELS = { policy: "Who must have a second factor" } satisfies FieldLabels<SecondFactorPolicyChange>;

const CHECKS = formChecks(() => import("@/lib/validations/second-factor-policy").then(({ changeSecondFactorPolicySchema }) => changeSecondFactorPolicySchema), LABELS);

/**
 * The owners' policy (issue 24): who must have a second factor before they can
 * use the staff app. The server refuses a policy the owner does not meet
 * themself, and says so here.
 */
export function SecondFactorPolicyForm({ policy }: { policy: SecondFactorPolicy }) {
  const form = useServerForm(CHECKS, { defaultValues: { policy }, onSubmit: (values) => saveSecondFactorPolicy(values) });
  return <ChoiceForm form={form} name="policy" legend={LABELS.policy} choices={SECOND_FACTOR_POLICIES} labels={SECOND_FACTOR_POLICY_LABELS} current={policy} submitLabel="Save policy" />;
}
