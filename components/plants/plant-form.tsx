"use client";

import { type ReactNode, useEffect, useMemo, useState } from "react";
import type { FieldErrors } from "react-hook-form";
import { FormError } from "@/components/forms/form-error";
import { InputField } from "@/components/forms/form-field";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { type FieldLabels, fieldSentence } from "@/components/forms/sentence-resolver";
import { SubmitButton } from "@/components/forms/submit-button";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { nextPlantId } from "@/lib/client/next-plant-id";
import type { SaveOutcome } from "@/lib/client/offline/save-plant";
import type { PlantRefusal } from "@/lib/client/plant-submission";
import type { PlantField, PlantFormValues } from "@/lib/validations/plant";
import { INT64_MAX, INT64_MIN, PLANT_NAME_MAX, PLANT_TAG_MAX } from "@/lib/validations/plant-limits";
import type { WaitingPlant } from "@/lib/validations/waiting-plant";

export type SavedOutcome = Exclude<SaveOutcome, { kind: "refused" }>;

/** What the form's sentences call each field: "Id is required." for the schema's "id is required". */
export const PLANT_FIELD_LABELS: FieldLabels<PlantFormValues> = { id: "Id", name: "Name", tag: "Tag" };

const NOT_LOADED: PlantRefusal = {
  ok: false,
  reason: "unreachable",
  status: 0,
  fieldErrors: [],
  formError: "The plant was not saved: the server could not be reached, and this page could not load what keeps it in the browser. Try again.",
};

const CHECKS = formChecks(() => import("@/lib/validations/plant").then(({ plantFormSchema }) => plantFormSchema), PLANT_FIELD_LABELS);

type PlantFormProps = {
  /** The id to offer: prefilled while the person has not typed one of their own. */
  nextId: string;
  /** A waiting plant the app refused, to be fixed and sent again; its refusal shows on the fields. */
  editing?: WaitingPlant;
  /** Focus a field as soon as the form is shown (a form shown for editing, or again after it). */
  focusOnMount?: boolean;
  /** What the form tells about the last plant (components/plants/plant-entry.tsx keeps it across forms). */
  status: ReactNode;
  onSaved(outcome: SavedOutcome): void;
  onSubmitting(): void;
  onCancelEditing(): void;
};

/**
 * Adds a plant through POST /plants, or keeps it in the browser when it
 * cannot be sent now; the API's own schema decides what is valid, here and
 * on the server. Its messages read as sentences: the schema's own words
 * (components/forms/sentence-resolver.ts), the server's refusals too.
 */
export function PlantForm({ nextId, editing, focusOnMount = false, status, onSaved, onSubmitting, onCancelEditing }: PlantFormProps) {
  const refusal = useMemo(() => editing?.problem && refusalErrors(editing.problem), [editing]);
  const form = useServerForm(CHECKS, {
    // Errors appear while typing, not only after a failed submit.
    mode: "onChange",
    defaultValues: editing ? { id: editing.plant.id, name: editing.plant.name, tag: editing.plant.tag ?? "" } : { id: nextId, name: "", tag: "" },
    // A refused waiting plant shows why, on its fields, from the start.
    ...(refusal && { errors: refusal }),
    async onSubmit(plant, { reset }) {
      onSubmitting();
      // Sending (lossless-json) and keeping (IndexedDB) load with the first plant, not with the page (issue 20);
      // offline, the service worker has kept them.
      const outcome = await import("@/lib/client/offline/save-plant").then(
        ({ savePlant }) => savePlant(plant, editing?.seq),
        (): SaveOutcome => ({ kind: "refused", refusal: NOT_LOADED }),
      );
      if (outcome.kind === "refused") {
        const { fieldErrors, formError } = outcome.refusal;
        return { errors: formError ? [...fieldErrors, { field: null, message: formError }] : fieldErrors };
      }
      onSaved(outcome);
      // Ready for the next plant, its id offered and selected, so that typing replaces it. (Editing ends
      // instead: the entry shows a new form.)
      if (!editing) {
        reset({ id: nextPlantId(nextId, [plant.id]), name: "", tag: "" });
        setFocusRequest({ field: "id", select: true });
      }
    },
  });
  const { setFocus, resetField } = form;
  const { dirtyFields, defaultValues } = form.formState;

  // While the person has not typed an id of their own, the field follows the
  // offered one: it moves on when waiting plants turn up with larger ids
  // (reading them takes a moment). A form for editing holds the waiting plant.
  const idTyped = dirtyFields.id === true;
  useEffect(() => {
    if (!editing && !idTyped) resetField("id", { defaultValue: nextId });
  }, [editing, idTyped, nextId, resetField]);

  // reset() empties react-hook-form's register of fields until the next
  // render registers them again, so a setFocus() right after it finds no
  // field and does nothing: focus stayed on Tag (Enter pressed there) or was
  // lost (the clicked button, disabled while saving). Focus is asked for
  // here instead, once the render after the reset has registered the fields.
  const [focusRequest, setFocusRequest] = useState<{ field: PlantField; select: boolean } | undefined>(() =>
    focusOnMount ? { field: editing?.problem?.fieldErrors[0]?.field ?? "id", select: !editing } : undefined,
  );
  useEffect(() => {
    if (focusRequest) setFocus(focusRequest.field, { shouldSelect: focusRequest.select });
  }, [focusRequest, setFocus]);

  // Nothing typed while a plant is being saved would survive the form's reset for the next one:
  // the fields wait (read-only, so focus stays where it is) until the save is done.
  const busy = form.pending;
  // What the three fields share: plain text, not for the browser to autofill, read-only while busy.
  const field = { form, type: "text", autoComplete: "off", readOnly: busy } as const;

  return (
    <HydratedForm className="stack" onSubmit={form.submit} noValidate aria-describedby="plant-form-status" aria-busy={busy}>
      {editing && (
        <div className="editing-notice">
          <p>
            Changing a waiting plant the app refused. Fix it and send it again, or keep it waiting as it is.
          </p>
          <button type="button" className="secondary" onClick={onCancelEditing}>
            Stop changing it
          </button>
        </div>
      )}
      <InputField
        {...field}
        name="id"
        id="plant-id"
        label="Id"
        hint={`A whole number from ${INT64_MIN} to ${INT64_MAX}.${editing ? "" : " The next free one is filled in; type another if you like."}`}
        defaultValue={defaultValues?.id}
        spellCheck={false}
        required
      />
      <InputField {...field} name="name" id="plant-name" label="Name" hint={`Up to ${PLANT_NAME_MAX} characters.`} defaultValue={defaultValues?.name} required />
      <InputField {...field} name="tag" id="plant-tag" label="Tag (optional)" hint={`The kind of plant, up to ${PLANT_TAG_MAX} characters.`} defaultValue={defaultValues?.tag} />
      <FormError message={form.formError} />
      {status}
      <SubmitButton pending={form.pending} pendingLabel={editing ? "Sending…" : "Saving…"}>
        {editing ? "Send again" : "Add plant"}
      </SubmitButton>
    </HydratedForm>
  );
}

/** Why the app refused a waiting plant, as the form's errors. */
function refusalErrors({ fieldErrors, formError }: NonNullable<WaitingPlant["problem"]>): FieldErrors<PlantFormValues> {
  return {
    ...Object.fromEntries(fieldErrors.map(({ field, message }) => [field, { type: "server", message: fieldSentence(message, field, PLANT_FIELD_LABELS) }])),
    ...(formError !== undefined && { root: { server: { type: "server", message: fieldSentence(formError, null, PLANT_FIELD_LABELS) } } }),
  };
}
