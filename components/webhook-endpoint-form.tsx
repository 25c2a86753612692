"use client";

import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { createEndpoint, editEndpoint } from "@/app/(staff)/webhooks/actions";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { HydratedForm } from "@/components/hydrated-form";
import { lazyZodResolver } from "@/components/lazy-zod-resolver";
import { SecretOnce } from "@/components/secret-once";
import { type FieldLabels, showServerErrors, withSentences } from "@/components/sentence-resolver";
import { SubmitButton } from "@/components/submit-button";
import type { NewWebhookEndpoint, NewWebhookEndpointValues } from "@/lib/validations/webhook";
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from "@/lib/validations/webhook-options";

const DEFAULTS: NewWebhookEndpointValues = { url: "", events: [...WEBHOOK_EVENT_TYPES], description: "" };

/** How the messages name each field (the form's labels). */
const LABELS: FieldLabels<NewWebhookEndpointValues> = { url: "URL", events: "Events", description: "Description" };

const resolver = withSentences(
  lazyZodResolver(() => import("@/lib/validations/webhook").then(({ newWebhookEndpointSchema }) => newWebhookEndpointSchema)),
  LABELS,
);

/** An endpoint as the form edits it. */
export type EditedEndpoint = { id: string } & Required<NewWebhookEndpointValues>;

/**
 * Adds a webhook endpoint, or, given one, changes its URL, events and
 * description; the form checks its fields with the same schema as the server
 * actions, and shows the server's reason when the URL is refused (not https,
 * not resolving, a private address), all in sentences. A new endpoint's
 * secret is shown once, and takes focus (SecretOnce).
 */
export function WebhookEndpointForm({ endpoint }: { endpoint?: EditedEndpoint }) {
  const defaults: NewWebhookEndpointValues = endpoint ? { url: endpoint.url, events: endpoint.events, description: endpoint.description } : DEFAULTS;
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<NewWebhookEndpointValues, unknown, NewWebhookEndpoint>({ resolver, defaultValues: defaults });
  const [created, setCreated] = useState<{ id: string; url: string; secret: string }>();
  const [saved, setSaved] = useState(false);

  async function onSubmit(values: NewWebhookEndpoint) {
    setCreated(undefined);
    setSaved(false);
    // The server action parses it again, with the same schema: it trusts nothing from the browser.
    if (endpoint) {
      const result = await editEndpoint(endpoint.id, values);
      if ("saved" in result) {
        setSaved(true);
        reset(values);
      } else showServerErrors(setError, result.errors, LABELS);
      return;
    }
    const result = await createEndpoint(values);
    if ("created" in result) {
      setCreated(result.created);
      reset(DEFAULTS);
      return;
    }
    showServerErrors(setError, result.errors, LABELS);
  }

  return (
    <>
      <HydratedForm className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
        <InputField
          id="webhook-url"
          label="URL"
          hint="Where Plant Store sends events: an https:// address that reaches the receiver."
          error={errors.url?.message}
          registration={register("url")}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          required
        />
        <fieldset aria-describedby={errors.events ? "webhook-events-error" : undefined}>
          <legend>Events</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="check">
              <input {...register("events")} type="checkbox" value={type} defaultChecked={defaults.events.includes(type)} /> {type} <span className="check-detail">— {WEBHOOK_EVENTS[type]}</span>
            </label>
          ))}
          <p id="webhook-events-error" className="field-error" aria-live="polite">
            {errors.events?.message}
          </p>
        </fieldset>
        <InputField
          id="webhook-description"
          label="Description (optional)"
          hint={`What receives these events, up to ${WEBHOOK_DESCRIPTION_MAX} characters.`}
          error={errors.description?.message}
          registration={register("description")}
          type="text"
          autoComplete="off"
          maxLength={WEBHOOK_DESCRIPTION_MAX}
        />
        <FormError message={errors.root?.server?.message} />
        <SubmitButton pending={isSubmitting} pendingLabel="Checking the URL…">
          {endpoint ? "Save changes" : "Add endpoint"}
        </SubmitButton>
      </HydratedForm>
      <div role="status" className="new-token-status">
        {saved && <p>The endpoint’s changes are saved.</p>}
        {created && (
          <SecretOnce id="new-webhook-secret" label="Signing secret" secret={created.secret}>
            <p>
              <strong>Copy the signing secret for {created.url} now:</strong> it will not be shown again. The receiver needs it to verify that
              deliveries come from Plant Store.
            </p>
            <p>
              <Link href={`/webhooks/${created.id}`}>Open this endpoint</Link> to send it a test event.
            </p>
          </SecretOnce>
        )}
      </div>
    </>
  );
}
