"use client";

import { type ReactNode, useRef } from "react";
import { ScriptButton } from "@/components/shared/script-button";
import type { TeamAct, TeamOutcome } from "@/components/team/team-outcome";

/**
 * A Team page change that needs a yes (deactivating someone, clearing their
 * second factors): a button that opens the browser's own modal dialog (it
 * keeps focus inside and closes on Escape), naming the person and what
 * follows, with Cancel focused first, so that Enter or Space changes nothing.
 * Once done, the row's button is gone or changed, so the outcome takes focus.
 */
export function MemberConfirmDialog({
  id,
  pending,
  act,
  button,
  title,
  text,
  confirm,
  run,
}: {
  /** Unique on the page: the dialog's title and text are named by it. */
  id: string;
  pending: boolean;
  act: TeamAct;
  /** The row's button: its text, and its accessible name, which says whom it is for. */
  button: { text: string; label: string };
  title: string;
  text: ReactNode;
  /** The dialog's yes, and what it says while the change is under way. */
  confirm: { text: string; pending: string };
  run: () => Promise<NonNullable<TeamOutcome>>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const ids = { title: `${id}-title`, text: `${id}-text` };

  function open() {
    if (pending) return;
    dialog.current?.showModal();
    cancel.current?.focus();
  }

  function yes() {
    return act(async () => {
      const result = await run();
      dialog.current?.close();
      return { ...result, focus: true };
    });
  }

  return (
    <>
      <ScriptButton className="danger" aria-disabled={pending} aria-label={button.label} onClick={open}>
        {button.text}
      </ScriptButton>
      <dialog ref={dialog} aria-labelledby={ids.title} aria-describedby={ids.text} className="confirm-dialog">
        <h2 id={ids.title}>{title}</h2>
        <p id={ids.text}>{text}</p>
        <div className="dialog-buttons">
          <button type="button" className="danger" onClick={yes} disabled={pending}>
            {pending ? confirm.pending : confirm.text}
          </button>
          <button type="button" ref={cancel} onClick={() => dialog.current?.close()} disabled={pending}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
