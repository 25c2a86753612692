"use client";

import Link from "next/link";
import { useEffect } from "react";
import { registerServiceWorker } from "@/lib/client/offline/service-worker-registration";
import { useWaitingPlants } from "@/lib/client/offline/use-waiting-plants";

/**
 * For the staff header: how many plants wait in this browser to be sent, as
 * a link to them, shown only while some do. Wherever it is shown, the page
 * sends them on load and when the connection returns, so they leave
 * whichever page the person is on.
 */
export function WaitingPlantsIndicator() {
  const { plants } = useWaitingPlants({ send: true });
  useEffect(registerServiceWorker, []);
  const count = plants?.length ?? 0;
  if (count === 0) return null;
  return (
    <Link className="waiting-indicator" href="/plants/new#waiting-plants">
      {count === 1 ? "1 plant waiting to send" : `${count} plants waiting to send`}
    </Link>
  );
}
