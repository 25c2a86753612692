import type { WaitingPlantsNews } from "@/lib/validations/waiting-plant";

// News of the waiting plants, told to every page of the app and to its
// service worker (a BroadcastChannel reaches every context of the origin,
// this one's other listeners included), so that each lists them anew and
// says what a round of sending did, whoever ran it.

const CHANNEL = "plant-store:waiting-plants";

export function tellWaitingPlantsNews(news: WaitingPlantsNews): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(news);
  channel.close();
}

/** Calls `listener` with each piece of news, in order; returns the function that stops listening. */
export function listenToWaitingPlantsNews(listener: (news: WaitingPlantsNews) => void): () => void {
  if (typeof BroadcastChannel === "undefined") return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  let listening = true;
  channel.onmessage = (event: MessageEvent<unknown>) => {
    // News is read through its schema, loaded with the first piece (news means plants are kept or sent), not
    // with every page (issue 20). One import, so each piece is read in the order it came.
    void import("@/lib/validations/waiting-plant").then(({ waitingPlantsNewsSchema }) => {
      const news = waitingPlantsNewsSchema.safeParse(event.data);
      if (listening && news.success) listener(news.data);
    });
  };
  return () => {
    listening = false;
    channel.close();
  };
}
