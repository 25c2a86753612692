"use client";

import type { ComponentProps } from "react";
import { useHydrated } from "@/lib/client/use-hydrated";

/**
 * A button whose press is handled by the page's script (it opens a dialog, calls a server action,
 * signs out), disabled until the page is hydrated, as a form's submit button is
 * (components/forms/submit-button.tsx): a press before that did nothing at all, and said nothing.
 * (Loaded test runs pressed such buttons that soon and waited in vain: for a dialog, for sign-out.)
 */
export function ScriptButton({ disabled, ...button }: Omit<ComponentProps<"button">, "type">) {
  const hydrated = useHydrated();
  return <button {...button} type="button" disabled={disabled || !hydrated} />;
}
