"use client";

import Link from "next/link";
import { createEndpoint, editEndpoint } from "@/app/(staff)/webhooks/actions";
import { CheckboxesField, InputField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { SecretOnce } from "@/components/shared/secret-once";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import type { NewWebhookEndpointValues } from "@/lib/validations/webhook";
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from "@/lib/validations/webhook-options";

const DEFAULTS: NewWebhookEndpointValues = { url: "", events: [...WEBHOOK_EVENT_TYPES], description: "" };

const EVENT_OPTIONS = WEBHOOK_EVENT_TYPES.map((type) => ({
  value: type,
  label: (
    <>
      {type} <span className="check-detail">— {WEBHOOK_EVENTS[type]}</span>
    </>
  ),
}));

const CHECKS = formChecks(() => import("@/lib/validations/webhook").then(({ newWebhookEndpointSchema }) => newWebhookEndpointSchema), {
  url: "URL",
  events: "Events",
  description: "Description",
});

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
  const form = useServerForm(CHECKS, {
    defaultValues: defaults,
    // The server actions parse it again, with the same schema: they trust nothing from the browser.
    async onSubmit(values, { reset }) {
      if (!endpoint) return createEndpoint(values);
      const result = await editEndpoint(endpoint.id, values);
      // The values as saved are the form's defaults from now on.
      if ("saved" in result) reset(values);
      return result;
    },
    // A new endpoint's form starts again, empty, for the next one.
    resetWhenDone: !endpoint,
  });
  const saved = form.done && "saved" in form.done;
  const created = form.done && "created" in form.done ? form.done.created : undefined;

  return (
    <>
      <HydratedForm className="stack" onSubmit={form.submit} noValidate>
        <InputField
          form={form}
          name="url"
          id="webhook-url"
          label="URL"
          hint="Where Plant Store sends events: an https:// address that reaches the receiver."
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          required
        />
        <CheckboxesField form={form} name="events" id="webhook-events" legend="Events" options={EVENT_OPTIONS} checked={defaults.events} />
        <InputField
          form={form}
          name="description"
          id="webhook-description"
          label="Description (optional)"
          hint={`What receives these events, up to ${WEBHOOK_DESCRIPTION_MAX} characters.`}
          type="text"
          autoComplete="off"
          maxLength={WEBHOOK_DESCRIPTION_MAX}
        />
        <FormSubmit form={form} pendingLabel="Checking the URL…">
          {endpoint ? "Save changes" : "Add endpoint"}
        </FormSubmit>
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
