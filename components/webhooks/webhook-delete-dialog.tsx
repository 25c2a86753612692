"use client";

import { useRef } from "react";
import { deleteEndpoint } from "@/app/(staff)/webhooks/actions";
import { ScriptButton } from "@/components/shared/script-button";

/**
 * Deletes an endpoint after a confirmation that names its URL, in a modal
 * dialog (the browser's own: it keeps focus inside and closes on Escape).
 */
export function WebhookDeleteDialog({ endpointId, url }: { endpointId: string; url: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  function open() {
    dialog.current?.showModal();
    // The safe choice first: Enter or Space on the focused button does not delete.
    cancel.current?.focus();
  }
  return (
    <div className="action">
      <ScriptButton className="danger" onClick={open}>
        Delete endpoint
      </ScriptButton>
      <dialog ref={dialog} aria-labelledby="delete-endpoint-title" aria-describedby="delete-endpoint-text" className="confirm-dialog">
        <h2 id="delete-endpoint-title">Delete this endpoint?</h2>
        <p id="delete-endpoint-text">
          Delete the endpoint <span className="url">{url}</span>? Nothing more is sent to it, and its deliveries are deleted with it. This cannot be
          undone.
        </p>
        <form action={deleteEndpoint} className="dialog-buttons">
          <input type="hidden" name="endpointId" value={endpointId} />
          <button type="submit" className="danger">
            Yes, delete it
          </button>
          <button type="button" ref={cancel} onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </form>
      </dialog>
    </div>
  );
}
