import { z } from "zod";
import { SECOND_FACTOR_POLICIES, type SecondFactorPolicyChange } from "@/lib/validations/second-factor-policy-options";

// The owners' policy's schema (issue 24), shared by the Team page's form (which
// loads it when it first validates) and its server action; no server import here.

export const secondFactorPolicySchema = z.enum(SECOND_FACTOR_POLICIES, { error: "Choose who must have a second factor" });

export const changeSecondFactorPolicySchema: z.ZodType<SecondFactorPolicyChange, SecondFactorPolicyChange> = z.object({ policy: secondFactorPolicySchema });
