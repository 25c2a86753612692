"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { ScriptButton } from "@/components/shared/script-button";
import { Fact } from "@/components/shared/fact";
import { leaveFlashMessage } from "@/lib/client/flash-message";
import type { DeleteOutcome, PlantVersionShown } from "@/lib/client/plant-changes";

/**
 * Deletes the plant after a confirmation that names it, in a modal dialog
 * (the browser's own: it keeps focus inside and closes on Escape), only at
 * the version the page shows. If someone else changed it meanwhile, the
 * dialog shows their version and asks again; closing it then keeps the plant
 * and the page takes their version (onKeep).
 */
export function PlantDeleteDialog({ shown, onKeep }: { shown: PlantVersionShown; onKeep: (current: PlantVersionShown) => void }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const changed = useRef<HTMLDivElement>(null);
  const [conflict, setConflict] = useState<PlantVersionShown | null>(null);
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);
  const target = conflict ?? shown;
  const id = target.plant.id.toString();

  useEffect(() => {
    // The question changed under the person's hands: what changed is read first.
    if (conflict) changed.current?.focus();
  }, [conflict]);

  function open() {
    setConflict(null);
    setError("");
    dialog.current?.showModal();
    // The safe choice first: Enter or Space on the focused button does not delete.
    cancel.current?.focus();
  }

  function closed() {
    if (conflict) onKeep(conflict);
    setConflict(null);
    opener.current?.focus();
  }

  async function confirm() {
    setPending(true);
    setError("");
    // The API's client loads when deleting, not with the page (issue 20).
    const outcome = await import("@/lib/client/plant-changes").then(
      ({ deletePlant }) => deletePlant(target.plant.id, target.etag),
      (): DeleteOutcome => ({ kind: "refused", fieldErrors: [], formError: "Nothing was deleted: the server could not be reached. Check your connection and try again." }),
    );
    setPending(false);
    if (outcome.kind === "deleted" || outcome.kind === "gone") {
      leaveFlashMessage(
        outcome.kind === "deleted" ? `Deleted ${target.plant.name} (id ${id}).` : `${target.plant.name} (id ${id}) had already been deleted by someone else.`,
      );
      router.push("/");
      return;
    }
    if (outcome.kind === "conflict") setConflict(outcome.current);
    else setError(outcome.formError ?? "The plant was not deleted.");
  }

  return (
    <div className="action">
      <ScriptButton ref={opener} className="danger" onClick={open}>
        Delete plant
      </ScriptButton>
      <dialog ref={dialog} aria-labelledby="delete-plant-title" aria-describedby="delete-plant-text" className="confirm-dialog" onClose={closed}>
        <h2 id="delete-plant-title">
          Delete {target.plant.name} (id <span className="id">{id}</span>)?
        </h2>
        {conflict ? (
          <div id="delete-plant-text" ref={changed} tabIndex={-1}>
            <p>Someone else changed this plant after this page was loaded. It is now:</p>
            <dl className="facts">
              <Fact term="Name">{conflict.plant.name}</Fact>
              <Fact term="Tag">{conflict.plant.tag ?? <span className="muted">no tag</span>}</Fact>
            </dl>
            <p>Delete it as it is now, or keep it?</p>
          </div>
        ) : (
          <p id="delete-plant-text">It is deleted for everyone, and cannot be brought back.</p>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" className="danger" onClick={confirm} disabled={pending}>
            {pending ? "Deleting…" : conflict ? "Delete it anyway" : "Delete"}
          </button>
          <button type="button" ref={cancel} onClick={() => dialog.current?.close()} disabled={pending}>
            {conflict ? "Keep it" : "Cancel"}
          </button>
        </div>
      </dialog>
    </div>
  );
}
