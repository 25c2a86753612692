"use client";

import { useRouter } from "next/navigation";
import { finishAddingPasskey, startAddingPasskey } from "@/app/(staff)/account/passkey-actions";
import { InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";

const CHECKS = formChecks(() => import("@/lib/validations/passkey").then(({ addPasskeySchema }) => addPasskeySchema), { name: "Passkey name" });

const UNREACHABLE = "The server could not be reached. Check your connection and try again.";

/**
 * Adds a passkey: the person names it, the browser makes it (a fingerprint, a
 * face, the device's PIN), and the server keeps it. @simplewebauthn/browser
 * loads with the first try, not with the page.
 */
export function PasskeyAddForm() {
  const router = useRouter();
  const form = useServerForm(CHECKS, {
    defaultValues: { name: "" },
    async onSubmit(values) {
      const webauthn = await import("@simplewebauthn/browser").catch(() => undefined);
      if (!webauthn) return UNREACHABLE;
      if (!webauthn.browserSupportsWebAuthn()) return "This browser cannot make passkeys.";
      const started = await startAddingPasskey().catch(() => undefined);
      if (!started) return UNREACHABLE;
      if ("error" in started) return started.error;
      let response;
      try {
        response = await webauthn.startRegistration({ optionsJSON: started.options });
      } catch (error) {
        return creationRefusal(error);
      }
      const result = await finishAddingPasskey({ challengeId: started.challengeId, name: values.name, response }).catch(() => undefined);
      if (!result) return UNREACHABLE;
      if ("error" in result) return result.error;
      router.refresh();
      return { added: values.name.trim() };
    },
    resetWhenDone: true,
  });

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate>
      <InputField form={form} name="name" id="passkey-name" label="Passkey name" hint="Say which device or key it is, such as “work phone”." type="text" autoComplete="off" required maxLength={60} />
      <FormSubmit form={form} pendingLabel="Adding…">
        Add a passkey
      </FormSubmit>
      <p role="status" className="confirmation">
        {form.done && `Passkey “${form.done.added}” added. You are signed out everywhere else.`}
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
