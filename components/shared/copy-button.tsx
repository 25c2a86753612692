"use client";

import { useState } from "react";

/** Copies `text`; `what` names it in the message shown when the browser will not. */
export function CopyButton({ text, what = "token" }: { text: string; what?: string }) {
  const [result, setResult] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setResult("Copied.");
    } catch {
      // The clipboard needs a secure context (HTTPS or localhost) and permission.
      setResult(`Could not copy: select the ${what} and copy it by hand.`);
    }
  }
  return (
    <>
      <button type="button" onClick={copy}>
        Copy
      </button>
      <span className="copy-result" aria-live="polite">
        {result}
      </span>
    </>
  );
}
