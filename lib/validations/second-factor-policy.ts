import { z } from "zod";

// The owners' policy on second factors (issue 24): who must have one (a
// passkey or an authenticator app) before they can use the staff app. Shared
// by the Team page's form and its server action; no server import here.

export const SECOND_FACTOR_POLICIES = ["off", "owners", "everyone"] as const;
export type SecondFactorPolicy = (typeof SECOND_FACTOR_POLICIES)[number];

export const secondFactorPolicySchema = z.enum(SECOND_FACTOR_POLICIES, { error: "Choose who must have a second factor" });

export const changeSecondFactorPolicySchema = z.object({ policy: secondFactorPolicySchema });
export type SecondFactorPolicyChange = z.infer<typeof changeSecondFactorPolicySchema>;

/** How the Team page names each choice. */
export const SECOND_FACTOR_POLICY_LABELS: Record<SecondFactorPolicy, string> = {
  off: "Nobody: a second factor is each person's choice",
  owners: "Owners: every owner must have one",
  everyone: "Everyone: every owner and staff member must have one",
};
