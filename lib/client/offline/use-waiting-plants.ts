import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { countWaitingPlants } from "@/lib/client/offline/waiting-plants-database";
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
 * whenever the browser comes back online, and on sendNow(). What reads and
 * sends them (their schemas, zod, lossless-json) is loaded once one waits:
 * on every staff page, usually none does (issue 20).
 */
export function useWaitingPlants({ send }: { send: boolean }): WaitingPlants {
  const [plants, setPlants] = useState<WaitingPlant[]>();
  const [lastSending, setLastSending] = useState<SendingNews>();
  const [sentSeqs, setSentSeqs] = useState<readonly number[]>([]);

  const read = useCallback(() => {
    listWaitingPlants().then(setPlants, () => {
      // IndexedDB refused (some private windows): nothing is kept, nothing to list.
      setPlants(undefined);
    });
  }, []);

  const sendNow = useCallback(async () => {
    try {
      if ((await countWaitingPlants()) === 0) return;
      const [{ waitingPlants }, { announceSending, sendWaitingPlants }] = await Promise.all([
        import("@/lib/client/offline/waiting-plants"),
        import("@/lib/client/offline/send-waiting-plants"),
      ]);
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

async function listWaitingPlants(): Promise<WaitingPlant[]> {
  if ((await countWaitingPlants()) === 0) return [];
  const { waitingPlants } = await import("@/lib/client/offline/waiting-plants");
  return waitingPlants.list();
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
