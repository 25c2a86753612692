"use client";

import { useRouter } from "next/navigation";
import { useEffect, useEffectEvent, useRef, useTransition } from "react";

// What a staff page following changes says of what it has not shown yet
// (issue 32): "3 new plants since this page was read.", in a polite live
// region that is there, empty, before it speaks, and a button that reads the
// page again. Once the new rows are in (the refresh done), `onShown` takes
// the focus to them: the button is gone with the count.

export function NewSinceNotice({ count, noun, onShown }: { count: number; noun: readonly [one: string, many: string]; onShown(): void }) {
  const router = useRouter();
  const [showing, startShowing] = useTransition();
  const asked = useRef(false);
  const shown = useEffectEvent(onShown);
  useEffect(() => {
    if (showing || !asked.current) return;
    asked.current = false;
    shown();
  }, [showing]);
  return (
    <div className="live-notice">
      <p role="status">{count > 0 ? `${count} new ${count === 1 ? noun[0] : noun[1]} since this page was read.` : ""}</p>
      {count > 0 && (
        <button
          type="button"
          disabled={showing}
          onClick={() => {
            asked.current = true;
            startShowing(() => router.refresh());
          }}
        >
          Show {count === 1 ? "it" : "them"}
        </button>
      )}
    </div>
  );
}
