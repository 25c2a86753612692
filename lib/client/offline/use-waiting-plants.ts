import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { announceSending, sendWaitingPlants } from "@/lib/client/offline/send-waiting-plants";
import { waitingPlants } from "@/lib/client/offline/waiting-plants";
import { listenToWaitingPlantsNews } from "@/lib/client/offline/waiting-plants-news";
import type { WaitingPlant, WaitingPlantsNews } from "@/lib/validations/waiting-plant";

export type SendingNews = Extract<WaitingPlantsNews, { kind: "sent" }>;

export type WaitingPlants = {
  /** The waiting plants, oldest first; undefined until read (and always, where the browser cannot keep them). */
  plants: WaitingPlant[] | undefined;
  /** What the last round of sending did, whoever ran it: this page, another, or the service worker. */
  lastSending: SendingNews | undefined;
  /** The seqs of the waiting plants sent while this page is open, whoever sent them. */
  sentSeqs: readonly number[];
  sendNow(): Promise<void>;
};

/**
 * The waiting plants, kept up to date across the app's pages and its service
 * worker. With `send`, this page also sends them: now (the app has loaded),
 * whenever the browser comes back online, and on sendNow().
 */
export function useWaitingPlants({ send }: { send: boolean }): WaitingPlants {
  const [plants, setPlants] = useState<WaitingPlant[]>();
  const [lastSending, setLastSending] = useState<SendingNews>();
  const [sentSeqs, setSentSeqs] = useState<readonly number[]>([]);

  const read = useCallback(() => {
    waitingPlants.list().then(setPlants, () => {
      // IndexedDB refused (some private windows): nothing is kept, nothing to list.
      setPlants(undefined);
    });
  }, []);

  const sendNow = useCallback(async () => {
    try {
      announceSending(await sendWaitingPlants(waitingPlants));
    } catch {
      // IndexedDB refused: nothing was kept to send.
    }
  }, []);

  useEffect(() => {
    const stopListening = listenToWaitingPlantsNews((news) => {
      if (news.kind === "sent") {
        setLastSending(news);
        if (news.sent.length > 0) setSentSeqs((seqs) => [...seqs, ...news.sent]);
      }
      read();
    });
    read();
    if (!send) return stopListening;
    void sendNow();
    const sendOnline = () => void sendNow();
    window.addEventListener("online", sendOnline);
    return () => {
      stopListening();
      window.removeEventListener("online", sendOnline);
    };
  }, [read, send, sendNow]);

  return { plants, lastSending, sentSeqs, sendNow };
}

function subscribeToConnection(onChange: () => void): () => void {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

/** Whether the browser believes it has a network; true on the server, where no one is offline. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeToConnection,
    () => navigator.onLine,
    () => true,
  );
}
