"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { finishAddingPasskey, startAddingPasskey } from "@/app/(staff)/account/passkey-actions";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import type { AddPasskeyValues } from "@/lib/validations/passkey";

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/passkey").then(({ addPasskeySchema }) => addPasskeySchema)),
  { name: "Passkey name" },
);

const UNREACHABLE = "The server could not be reached. Check your connection and try again.";

/**
 * Adds a passkey: the person names it, the browser makes it (a fingerprint, a
 * face, the device's PIN), and the server keeps it. @simplewebauthn/browser
 * loads with the first try, not with the page.
 */
export function PasskeyAddForm() {
  const router = useRouter();
  const [status, setStatus] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<AddPasskeyValues>({ resolver, defaultValues: { name: "" } });

  async function onSubmit(values: AddPasskeyValues) {
    setStatus(undefined);
    const fail = (message: string) => setError("root.server", { message });
    const webauthn = await import("@simplewebauthn/browser").catch(() => undefined);
    if (!webauthn) return fail(UNREACHABLE);
    if (!webauthn.browserSupportsWebAuthn()) return fail("This browser cannot make passkeys.");
    const started = await startAddingPasskey().catch(() => undefined);
    if (!started) return fail(UNREACHABLE);
    if ("error" in started) return fail(started.error);
    let response;
    try {
      response = await webauthn.startRegistration({ optionsJSON: started.options });
    } catch (error) {
      return fail(creationRefusal(error));
    }
    const result = await finishAddingPasskey({ challengeId: started.challengeId, name: values.name, response }).catch(() => undefined);
    if (!result) return fail(UNREACHABLE);
    if ("error" in result) return fail(result.error);
    reset({ name: "" });
    setStatus(`Passkey “${values.name.trim()}” added. You are signed out everywhere else.`);
    router.refresh();
  }

  return (
    <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
      <InputField
        id="passkey-name"
        label="Passkey name"
        hint="Say which device or key it is, such as “work phone”."
        error={errors.name?.message}
        registration={register("name")}
        type="text"
        autoComplete="off"
        required
        maxLength={60}
      />
      <FormError message={errors.root?.server?.message} />
      <SubmitButton pending={isSubmitting} pendingLabel="Adding…">
        Add a passkey
      </SubmitButton>
      <p role="status" className="confirmation">
        {status}
      </p>
    </HydratedForm>
  );
}

/** The browser's refusal, as the person can act on it; a cancel is the common one. */
function creationRefusal(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "InvalidStateError") return "This device already holds a passkey for your account.";
  if (name === "NotAllowedError" || name === "AbortError") return "No passkey was made: the request was cancelled or timed out.";
  return "The browser could not make a passkey.";
}
