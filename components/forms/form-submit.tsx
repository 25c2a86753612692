import type { ReactNode } from "react";
import { FormError } from "@/components/forms/form-error";
import { SubmitButton } from "@/components/forms/submit-button";

/**
 * A form's last rows: what was refused for the form as a whole, then the
 * submit button, both from useServerForm (`form`). `children` is the button's
 * label.
 */
export function FormSubmit({ form, pendingLabel, children }: { form: { formError: string | undefined; pending: boolean }; pendingLabel: string; children: ReactNode }) {
  return (
    <>
      <FormError message={form.formError} />
      <SubmitButton pending={form.pending} pendingLabel={pendingLabel}>
        {children}
      </SubmitButton>
    </>
  );
}
