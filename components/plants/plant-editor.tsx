"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useWatch } from "react-hook-form";
import { FormError } from "@/components/forms/form-error";
import { InputField } from "@/components/forms/form-field";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { PlantConflict } from "@/components/plants/plant-conflict";
import { PlantDeleteDialog } from "@/components/plants/plant-delete-dialog";
import { fieldSentence } from "@/components/forms/sentence-resolver";
import { SubmitButton } from "@/components/forms/submit-button";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import { followPlantChanges } from "@/lib/client/change-feed";
import { takeFlashMessage } from "@/lib/client/flash-message";
import type { PlantChangeEvent } from "@/lib/client/plant-change-event";
import type { ChangeOutcome, PlantVersionShown } from "@/lib/client/plant-changes";
import type { Plant } from "@/lib/validations/plant";
import type { PlantEdit } from "@/lib/validations/plant-edit";
import { plantEditFormValues, plantEditPatch } from "@/lib/validations/plant-edit-patch";
import { PLANT_NAME_MAX, PLANT_TAG_MAX } from "@/lib/validations/plant-limits";

// How the fields are called in the messages the person reads ("Name must not be empty.").
const CHECKS = formChecks(() => import("@/lib/validations/plant-edit").then(({ plantEditFormSchema }) => plantEditFormSchema), { name: "Name", tag: "Tag" });

/**
 * Edits and deletes one plant through the API (PATCH and DELETE
 * /plants/{id}), always on the version this page holds (its ETag), so that
 * nobody's change is overwritten unseen. The version held is this
 * component's own from the first render on: a save or a choice moves it on,
 * and the server's parts of the page (the heading, when last changed, the
 * version, the history with the new change on top) are refreshed after.
 *
 * It follows the plant's changes made elsewhere (issue 32: the change feed,
 * from `position`, the feed's position the page was read at): untouched, the
 * form takes the new version and says who saved it; with an edit under way,
 * the conflict's choice is offered before a save could meet a 412, without
 * taking the focus from the field being typed in, while the server's parts
 * show the version saved (issue 44). A delete reads the page again, which
 * then says who deleted the plant, with Restore for owners.
 */
export function PlantEditor({
  plant,
  etag,
  position,
  headingId,
}: {
  plant: Plant;
  etag: string;
  position: string;
  /** The page's heading, which takes the focus when the page says what an action left for it (lib/client/flash-message.ts). */
  headingId: string;
}) {
  const router = useRouter();
  const [shown, setShown] = useState<PlantVersionShown>({ plant, etag });
  const [conflict, setConflict] = useState<PlantVersionShown | null>(null);
  // A conflict a save met takes the focus to its choice; one the feed told of waits beside the field in use.
  const [conflictFocus, setConflictFocus] = useState(true);
  const [gone, setGone] = useState(false);
  const [status, setStatus] = useState("");
  const conflictHeading = useRef<HTMLHeadingElement>(null);
  // The conflict's buttons are gone once the person chose: focus goes back to the form, once it is rendered anew.
  const [nameFocusRequests, requestNameFocus] = useState(0);
  const form = useServerForm(CHECKS, {
    mode: "onChange",
    defaultValues: plantEditFormValues(plant),
    onSubmit: (edit) => save(edit, shown),
  });
  const { handleSubmit, setError, setFocus, reset, control } = form;
  const { defaultValues } = form.formState;

  // The form as it is now, for a conflict to show beside the saved version.
  const edit = useWatch({ control });

  useEffect(() => {
    if (conflict && conflictFocus) conflictHeading.current?.focus();
  }, [conflict, conflictFocus]);

  // A restore from the deleted page this one replaced leaves word for it (issue 44; app/(staff)/activity/actions.ts):
  // the Restore button that had the focus is gone, so the focus goes to the page's heading, and the status region
  // says what was done.
  useEffect(() => {
    const message = takeFlashMessage(`/plants/${plant.id}`);
    if (message === undefined) return;
    document.getElementById(headingId)?.focus();
    // A frame after the region is drawn empty: a region that appears already speaking is not announced. Not
    // cancelled on cleanup: the message is taken once, and React's development run of the effect twice would lose it.
    requestAnimationFrame(() => setStatus(message));
  }, [headingId, plant.id]);

  // Saves begun on this page: a change told while one was under way, or began meanwhile, is the save's to meet.
  const saves = useRef(0);
  // Called with each change the feed tells of, with the page's state as it is then (an Effect Event).
  const changedElsewhere = useEffectEvent(async (change: PlantChangeEvent) => {
    // A save under way meets any other change as a 412 itself; the feed's word of this page's own save is no news.
    if (form.pending) return;
    const savesBefore = saves.current;
    if (change.type === "plant.deleted") return router.refresh();
    const { readPlant } = await import("@/lib/client/plant-changes");
    const current = await readPlant(plant.id);
    if (!("etag" in current)) return current.kind === "gone" ? router.refresh() : undefined;
    if (current.etag === shown.etag) return;
    const who = await savedBy(plant.id);
    // The person saved while this was read (Keep my edit, say): what this page holds is newer than `shown` here.
    if (saves.current !== savesBefore) return;
    // An edit under way: what a save would send now (the fields as typed, against the version edited).
    if (Object.keys(plantEditPatch(shown.plant, form.getValues())).length > 0) {
      setConflictFocus(false);
      setConflict(current);
      setStatus(`${who} saved another version of this plant while you were editing: keep yours or take theirs.`);
      // Only the fields wait for the person's choice: the heading, the facts and the history describe what is
      // stored, and take the saved version now (issue 44). A refresh keeps this component's state (the fields,
      // the conflict, the version edited) and the focus: it only draws the server's parts again.
      router.refresh();
    } else {
      adopt(current);
      setStatus(`${who} changed this plant: the form now holds the saved version.`);
    }
  });
  // One stream, from the position the page was first read at, for as long as the page is open: the page's
  // own refreshes (adopt) bring a newer position, and a stream opened from it would tell again of changes
  // the first had told of already (seen as a conflict with an edit saved meanwhile, on a loaded machine).
  const [followedFrom] = useState(position);
  useEffect(() => followPlantChanges({ after: followedFrom, filter: { ids: [plant.id] }, onChange: (change) => void changedElsewhere(change) }), [followedFrom, plant.id]);

  useEffect(() => {
    if (nameFocusRequests > 0) setFocus("name");
  }, [nameFocusRequests, setFocus]);

  /** Makes `version` the one this page edits; the fields take its values, or, with keepTyped, only those the person has not changed. */
  function adopt(version: PlantVersionShown, { keepTyped = false } = {}) {
    setShown(version);
    setConflict(null);
    reset(plantEditFormValues(version.plant), { keepDirtyValues: keepTyped });
    router.refresh();
  }

  /** Sends what the person changed in the version they edited, under the ETag of `over`: that version, or after a 412 the one saved now. */
  async function save(edit: PlantEdit, over: PlantVersionShown) {
    saves.current++;
    setStatus("");
    const patch = plantEditPatch(shown.plant, edit);
    if (Object.keys(patch).length === 0) {
      if (over === shown) setStatus("Nothing to save: the name and tag are as saved.");
      else takeTheirs(over);
      return;
    }
    // The API's client (lossless-json, the answers' schemas) loads with the first save, not with the page (issue 20).
    const outcome = await import("@/lib/client/plant-changes").then(
      ({ changePlant }) => changePlant(shown.plant.id, patch, over.etag),
      (): ChangeOutcome => ({ kind: "refused", fieldErrors: [], formError: "Nothing was saved: the server could not be reached. Check your connection and try again." }),
    );
    switch (outcome.kind) {
      case "changed": {
        adopt(outcome.stored);
        const { name, tag } = outcome.stored.plant;
        setStatus(`Saved: ${name}, ${tag === undefined ? "no tag" : `tag ${tag}`}.`);
        if (over !== shown) requestNameFocus((count) => count + 1);
        return;
      }
      case "conflict":
        setConflictFocus(true);
        setConflict(outcome.current);
        return;
      case "gone":
        setGone(true);
        return;
      case "refused":
        outcome.fieldErrors.forEach(({ field, message }, index) => {
          if (field !== "id") setError(field, { type: "server", message: fieldSentence(message, field, CHECKS.labels) }, { shouldFocus: index === 0 });
        });
        if (outcome.formError) setError("root.server", { type: "server", message: outcome.formError });
    }
  }

  function takeTheirs(theirs: PlantVersionShown) {
    adopt(theirs);
    setStatus("Your edit was discarded: the form now holds the saved version.");
    requestNameFocus((count) => count + 1);
  }

  if (gone) {
    return (
      <p className="form-error" role="alert">
        Someone else deleted this plant while you were editing it: nothing was saved. <Link href="/">Back to the plants</Link>.
      </p>
    );
  }

  return (
    <>
      <section aria-labelledby="edit-plant-title">
        <h2 id="edit-plant-title">Edit</h2>
        <HydratedForm className="stack" onSubmit={form.submit} noValidate>
          <InputField form={form} name="name" id="edit-name" label="Name" hint={`Up to ${PLANT_NAME_MAX} characters.`} defaultValue={defaultValues?.name} type="text" autoComplete="off" required />
          <InputField
            form={form}
            name="tag"
            id="edit-tag"
            label="Tag (optional)"
            hint={`The kind of plant, up to ${PLANT_TAG_MAX} characters; empty for no tag.`}
            defaultValue={defaultValues?.tag}
            type="text"
            autoComplete="off"
          />
          <FormError message={form.formError} />
          {conflict ? (
            <PlantConflict
              edit={{ name: edit.name ?? "", tag: edit.tag ?? "" }}
              editedFrom={shown.plant}
              theirs={conflict.plant}
              pending={form.pending}
              headingRef={conflictHeading}
              onKeepMine={handleSubmit((edit) => save(edit, conflict))}
              onTakeTheirs={() => takeTheirs(conflict)}
            />
          ) : (
            <SubmitButton pending={form.pending} pendingLabel="Saving…">
              Save changes
            </SubmitButton>
          )}
          <p className="confirmation" role="status">
            {status}
          </p>
        </HydratedForm>
      </section>
      <section aria-labelledby="delete-plant-section">
        <h2 id="delete-plant-section">Delete</h2>
        <PlantDeleteDialog
          shown={shown}
          onKeep={(current) => {
            adopt(current, { keepTyped: true });
            setStatus("The plant was kept. This page now shows it as someone else changed it.");
          }}
        />
      </section>
    </>
  );
}

/** Who made the plant's newest change, as its history says: a person's name, or the token's label. */
async function savedBy(id: bigint): Promise<string> {
  try {
    const response = await fetch(`/plants/${id}/history?limit=1`, { headers: { accept: "application/json" } });
    const [newest] = (await response.json()) as { by?: { kind?: string; name?: string } }[];
    const by = newest?.by;
    if (by?.kind === "person" && by.name) return by.name;
    if (by?.kind === "token" && by.name) return `The API token “${by.name}”`;
  } catch {
    // The history could not be read: the change is told without its author.
  }
  return "Someone else";
}
