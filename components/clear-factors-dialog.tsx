"use client";

import { useRef } from "react";
import { clearMemberFactors } from "@/app/(staff)/team/actions";
import type { TeamAct } from "@/components/team-outcome";

/**
 * Clears a person's second factors (issue 24: a lost phone must not lose the
 * account) after a confirmation that names them, in the browser's own modal
 * dialog, as deactivating does. Another person's only: an owner removes their
 * own on the Account page.
 */
export function ClearFactorsDialog({ member, pending, act }: { member: { id: string; name: string }; pending: boolean; act: TeamAct }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const ids = { title: `clear-factors-${member.id}-title`, text: `clear-factors-${member.id}-text` };

  function open() {
    if (pending) return;
    dialog.current?.showModal();
    // The safe choice first: Enter or Space on the focused button clears nothing.
    cancel.current?.focus();
  }

  function confirm() {
    return act(async () => {
      const result = await clearMemberFactors(member.id);
      dialog.current?.close();
      // The row's button is gone once its factors are: the outcome takes focus.
      return { ...result, focus: true };
    });
  }

  return (
    <>
      <button type="button" className="danger" aria-disabled={pending} aria-label={`Clear second factors of ${member.name}`} onClick={open}>
        Clear second factors
      </button>
      <dialog ref={dialog} aria-labelledby={ids.title} aria-describedby={ids.text} className="confirm-dialog">
        <h2 id={ids.title}>Clear the second factors of {member.name}?</h2>
        <p id={ids.text}>
          Their authenticator app, recovery codes and passkeys are removed, and their sessions end. They sign in with their password alone, and must set up a
          second factor again if the store requires one. Do this only when you know it is them asking.
        </p>
        <div className="dialog-buttons">
          <button type="button" className="danger" onClick={confirm} disabled={pending}>
            {pending ? "Clearing…" : "Yes, clear them"}
          </button>
          <button type="button" ref={cancel} onClick={() => dialog.current?.close()} disabled={pending}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
