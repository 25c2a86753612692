// A sign-out in one tab is the whole browser's (issue 32): the session cookie
// is gone for every tab, but a page that follows an event stream opened it
// with the cookie it had, and would go on showing the store's changes to
// whoever sits at the browser next. The tab that signs out says so on a
// BroadcastChannel; every page following a stream closes it and reads itself
// again, which takes it to sign-in.

const CHANNEL = "plant-store.session";
const SIGNED_OUT = "signed-out";

// Every channel of the name hears a message but its sender, this tab's own streams' too: this tab goes to sign-in by itself.
let signedOutHere = false;

/** Tells the browser's other tabs that this one signed out. */
export function announceSignOut(): void {
  signedOutHere = true;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(SIGNED_OUT);
  channel.close();
}

/** Calls `listener` when another tab signs out; answers the function that stops listening. */
export function onSignOutElsewhere(listener: () => void): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    if (event.data === SIGNED_OUT && !signedOutHere) listener();
  };
  return () => channel.close();
}
