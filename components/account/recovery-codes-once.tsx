"use client";

import { useEffect, useRef } from "react";
import { CopyButton } from "@/components/shared/copy-button";

/**
 * The recovery codes, the one time they exist in the clear. The heading takes
 * focus as they appear: the button that made them was disabled while it ran
 * and lost focus (WCAG 2.4.3), and a screen reader starts at what to keep.
 */
export function RecoveryCodesOnce({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [codes]);
  return (
    <div className="new-token stack" aria-labelledby="recovery-codes-heading" role="region">
      <h3 id="recovery-codes-heading" ref={heading} tabIndex={-1}>
        Your recovery codes
      </h3>
      <p>
        If you lose your phone, each of these signs you in once in place of a code. Keep them somewhere safe, apart from your phone: they are shown only now, and
        any earlier ones no longer work.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="token-row">
        <CopyButton text={codes.join("\n")} what="codes" />
      </div>
      <button type="button" className="secondary" onClick={onDone}>
        I have kept them
      </button>
    </div>
  );
}
