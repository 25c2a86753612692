// The owners' policy on second factors (issue 24): who must have one (a
// passkey or an authenticator app) before they can use the staff app. The
// choices and their words, apart from the schema that checks them
// (second-factor-policy.ts), so that the Team page does not load zod with the
// page (issue 20: its form loads the schema when it first validates).

export const SECOND_FACTOR_POLICIES = ["off", "owners", "everyone"] as const;
export type SecondFactorPolicy = (typeof SECOND_FACTOR_POLICIES)[number];

/** How the Team page names each choice. */
export const SECOND_FACTOR_POLICY_LABELS: Record<SecondFactorPolicy, string> = {
  off: "Nobody: a second factor is each person's choice",
  owners: "Owners: every owner must have one",
  everyone: "Everyone: every owner and staff member must have one",
};

/** The form's values: as the schema reads them. */
export type SecondFactorPolicyChange = { policy: SecondFactorPolicy };
