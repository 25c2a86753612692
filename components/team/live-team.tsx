"use client";

import { useRouter } from "next/navigation";
import { useEffect, useTransition } from "react";
import { followActivity } from "@/lib/client/activity-feed";

// The Team page following the activity record (issue 32): an account invited,
// joined, changed, deactivated or signed in elsewhere (another owner, the
// CLI) reads the page again, in place: its rows are keyed by account, so they
// change where they are, and a form being filled in keeps what was typed.
// Plants and webhooks are not the team's.

const NOT_THE_TEAMS = ["plant.", "webhook."];

/** Waits this long after a record for others of the same burst (an import signs nobody in, but a reset writes several). */
const GATHER_MS = 200;

export function LiveTeam({ after }: { after: string }) {
  const router = useRouter();
  const [, startReading] = useTransition();
  useEffect(() => {
    let gathering: ReturnType<typeof setTimeout> | undefined;
    const stop = followActivity({
      after,
      onRecorded: ({ action }) => {
        if (NOT_THE_TEAMS.some((prefix) => action.startsWith(prefix)) || gathering !== undefined) return;
        gathering = setTimeout(() => {
          gathering = undefined;
          startReading(() => router.refresh());
        }, GATHER_MS);
      },
    });
    return () => {
      clearTimeout(gathering);
      stop();
    };
  }, [after, router]);
  return null;
}
