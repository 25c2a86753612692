"use client";

import { type ReactNode, useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

/**
 * A form's submit button, disabled while the submission is under way, so it is
 * not sent twice, and until the page is hydrated: the forms validate and submit
 * through JavaScript, and a click before that would submit the bare HTML form
 * instead (a reload that loses what was typed and shows no error).
 */
export function SubmitButton({ pending, pendingLabel, children }: { pending: boolean; pendingLabel: string; children: ReactNode }) {
  // false in the server's HTML, true once React runs in the browser.
  const hydrated = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  return (
    <button type="submit" disabled={pending || !hydrated}>
      {pending ? pendingLabel : children}
    </button>
  );
}
