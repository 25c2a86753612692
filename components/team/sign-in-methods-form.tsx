"use client";

import { saveSignInMethods } from "@/app/(staff)/team/actions";
import { ChoiceForm } from "@/components/forms/choice-form";
import type { FieldLabels } from "@/components/forms/sentence-resolver";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { SIGN_IN_METHODS, SIGN_IN_METHODS_LABELS, type SignInMethods, type SignInMethodsChange } from "@/lib/validations/sign-in-methods-options";

const LABELS = { methods: "How staff sign in" } satisfies FieldLabels<SignInMethodsChange>;

const CHECKS = formChecks(() => import("@/lib/validations/sign-in-methods").then(({ changeSignInMethodsSchema }) => changeSignInMethodsSchema), LABELS);

/**
 * How staff sign in (issue 34): every way, or the company sign-in only. Only
 * offered while single sign-on is configured (the server refuses it
 * otherwise, and says so here); owners keep their own ways in either way.
 */
export function SignInMethodsForm({ methods, ssoConfigured }: { methods: SignInMethods; ssoConfigured: boolean }) {
  const form = useServerForm(CHECKS, { defaultValues: { methods }, onSubmit: (values) => saveSignInMethods(values) });
  return (
    <ChoiceForm
      form={form}
      name="methods"
      legend={LABELS.methods}
      choices={SIGN_IN_METHODS}
      labels={SIGN_IN_METHODS_LABELS}
      current={methods}
      unavailable={(choice) => choice === "sso_only" && !ssoConfigured}
      submitLabel="Save"
    />
  );
}
