"use client";

import { useState } from "react";

export function CopyButton({ text }: { text: string }) {
  const [result, setResult] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setResult("Copied.");
    } catch {
      // The clipboard needs a secure context (HTTPS or localhost) and permission.
      setResult("Could not copy: select the token and copy it by hand.");
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
