"use client";

import type { FormHTMLAttributes } from "react";
import { useHydrated } from "@/lib/client/use-hydrated";

/**
 * A form that react-hook-form runs, its fields disabled until the page is
 * hydrated. React-hook-form then writes the form's values into its inputs and
 * checkboxes, replacing anything typed or ticked before; and a submission
 * before it would send the bare HTML form (a reload that loses the input).
 * The fields carry the same defaults in the server's HTML (defaultValue,
 * defaultChecked), so what shows before hydration is what the form holds
 * after it. The fieldset lays out nothing of its own (display: contents), so
 * the form's class still arranges the fields.
 */
export function HydratedForm({ children, ...form }: FormHTMLAttributes<HTMLFormElement>) {
  const hydrated = useHydrated();
  return (
    <form {...form}>
      <fieldset className="form-fields" disabled={!hydrated}>
        {children}
      </fieldset>
    </form>
  );
}
