"use client";

import { useActionState } from "react";
import { backUpNow, type BackUpNowResult } from "@/app/(staff)/backups/actions";
import { FormError } from "@/components/forms/form-error";

/**
 * "Back up now" on the Backups page: a form posting to the server action, so
 * it works before (or without) JavaScript too. The outcome is announced; the
 * page is drawn again around it with the new backup listed.
 */
export function BackUpNowButton() {
  const [outcome, backUp, pending] = useActionState<BackUpNowResult, FormData>(backUpNow, null);
  return (
    <div className="back-up-now">
      <form action={backUp} className="inline-form">
        {/* aria-disabled, not disabled: a disabled button loses keyboard focus while the backup runs. */}
        <button type="submit" className="secondary" aria-disabled={pending || undefined} onClick={(event) => pending && event.preventDefault()}>
          {pending ? "Backing up…" : "Back up now"}
        </button>
      </form>
      <p className="confirmation" role="status">
        {outcome && "done" in outcome ? outcome.done : ""}
      </p>
      <FormError message={outcome && "error" in outcome ? outcome.error : undefined} />
    </div>
  );
}
