"use client";

import type { ComponentProps } from "react";
import { useHydrated } from "@/lib/client/use-hydrated";

/**
 * The button that opens a confirmation dialog, disabled until the page is
 * hydrated, as a form's submit button is (components/forms/submit-button.tsx):
 * the dialog opens through JavaScript, and a press before that did nothing at
 * all. (A loaded test run pressed one that soon and waited in vain for its
 * dialog.)
 */
export function DialogOpener({ disabled, ...button }: Omit<ComponentProps<"button">, "type">) {
  const hydrated = useHydrated();
  return <button {...button} type="button" disabled={disabled || !hydrated} />;
}
