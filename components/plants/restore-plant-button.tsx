"use client";

import Link from "next/link";
import { useActionState, useEffect, useRef } from "react";
import { restoreDeletedPlant, restoreDeletedPlantOnItsPage, type RestoreResult } from "@/app/(staff)/activity/actions";
import { FormError } from "@/components/forms/form-error";

/**
 * A deleted plant's "Restore", in its record's row: a form posting the
 * record's id to the server action, so it works before (or without)
 * JavaScript too. Drawn for every plant.deleted record, restorable or not,
 * so that the outcome stays in place when the page is drawn again after the
 * restore: the button is gone then (the id is taken, by the plant restored),
 * and the sentence takes focus, where a screen reader reads it and keyboard
 * users carry on from. On the deleted plant's own page (onItsPage), the
 * restore turns the page into the plant's, without this button: that page
 * says the outcome (restoreDeletedPlantOnItsPage).
 */
export function RestorePlantButton({ recordId, plantId, name, restorable, onItsPage = false }: { recordId: string; plantId: string; name: string; restorable: boolean; onItsPage?: boolean }) {
  const [outcome, restore, pending] = useActionState<RestoreResult, FormData>(onItsPage ? restoreDeletedPlantOnItsPage : restoreDeletedPlant, null);
  const done = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (outcome && "done" in outcome) done.current?.focus();
  }, [outcome]);
  if (outcome && "done" in outcome) {
    return (
      <p ref={done} className="confirmation" role="status" tabIndex={-1}>
        {outcome.done} <Link href={`/plants/${outcome.plantId}`}>Open {outcome.name}</Link>
      </p>
    );
  }
  return (
    <div className="restore">
      {restorable ? (
        <form action={restore} className="inline-form">
          <input type="hidden" name="record" value={recordId} />
          {/* aria-disabled, not disabled: a disabled button loses keyboard focus while the restore runs. */}
          <button type="submit" className="secondary" aria-disabled={pending || undefined} onClick={(event) => pending && event.preventDefault()}>
            Restore<span className="visually-hidden"> {name} (id {plantId})</span>
          </button>
        </form>
      ) : (
        <p className="muted">Its id is in use again: it cannot be restored.</p>
      )}
      <FormError message={outcome && "error" in outcome ? outcome.error : undefined} />
    </div>
  );
}
