"use client";

import type { ReactNode } from "react";
import { useHydrated } from "@/lib/client/use-hydrated";

/**
 * A form's submit button, disabled while the submission is under way, so it is
 * not sent twice, and until the page is hydrated: the forms validate and submit
 * through JavaScript, and a click before that would submit the bare HTML form
 * instead (a reload that loses what was typed and shows no error).
 */
export function SubmitButton({ pending, pendingLabel, children }: { pending: boolean; pendingLabel: string; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <button type="submit" disabled={pending || !hydrated}>
      {pending ? pendingLabel : children}
    </button>
  );
}
