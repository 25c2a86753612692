"use client";

import { useEffect, useRef } from "react";
import { removeFlashMessage } from "@/lib/client/flash-message";

/**
 * The message an action left for this page (lib/client/flash-message.ts),
 * shown once. It takes focus: the control that led here (a dialog's button,
 * say) is gone, and a screen reader reads what is focused, where a status
 * already on the page when it loads would not be announced.
 */
export function FlashMessage({ message }: { message: string }) {
  const paragraph = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    removeFlashMessage();
    paragraph.current?.focus();
  }, [message]);
  return (
    <p ref={paragraph} className="confirmation flash-message" role="status" tabIndex={-1}>
      {message}
    </p>
  );
}
