import { EventEmitter } from "node:events";
import { processGlobal } from "@/lib/server/process-global";

// A nudge to this process's delivery worker, if it runs here: something was
// just committed that may have made deliveries (a plant written or deleted, a
// resend, a test event), so it need not wait for its next poll. The worker
// polls anyway, for what other processes and instances commit.

function signal(): EventEmitter {
  return processGlobal("webhooks.signal", () => new EventEmitter());
}

export function wakeWebhookWorker(): void {
  signal().emit("wake");
}

/** Calls `listener` on each nudge; answers the function that stops it. */
export function onWebhookWorkerWake(listener: () => void): () => void {
  signal().on("wake", listener);
  return () => signal().off("wake", listener);
}
