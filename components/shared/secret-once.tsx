"use client";

import { type ReactNode, useEffect, useRef } from "react";
import { CopyButton } from "@/components/shared/copy-button";

/**
 * A secret (an API token, a webhook signing secret), shown the one time it
 * exists in the clear, with a copy button; `children` say what it is for.
 * It takes keyboard focus as it appears, selected, ready to copy: it is only
 * ever shown right after the action that made it, whose button was disabled
 * while it ran and so lost focus (WCAG 2.4.3).
 */
export function SecretOnce({ id, label, secret, what = "secret", children }: { id: string; label: string; secret: string; what?: string; children: ReactNode }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), [secret]);
  return (
    <div className="new-token">
      {children}
      <label htmlFor={id}>{label}</label>
      <div className="token-row">
        <input ref={input} id={id} type="text" readOnly value={secret} spellCheck={false} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton text={secret} what={what} />
      </div>
    </div>
  );
}
