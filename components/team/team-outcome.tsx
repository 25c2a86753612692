"use client";

import { useEffect, useRef, useState } from "react";
import type { LinkShown, TeamChangeResult, TeamLinkResult } from "@/app/(staff)/team/actions";
import { AccountLinkOnce } from "@/components/team/account-link-once";
import { FormError } from "@/components/forms/form-error";

/**
 * What the last change in a list of the team did: a sentence, a link shown
 * once, or why it was refused. `focus`: the control that made the change is
 * gone (a withdrawn invitation's row, a deactivation's dialog), so the
 * sentence takes focus, where a screen reader reads it and keyboard users
 * carry on from.
 */
export type TeamOutcome = ((TeamChangeResult | TeamLinkResult) & { focus?: boolean }) | null;

/** Where a list of the team tells its outcome: one live region whatever it is, so that each is announced. */
export function TeamOutcomeView({ outcome, linkId }: { outcome: TeamOutcome; linkId: string }) {
  const done = useRef<HTMLParagraphElement>(null);
  const message = outcome && "done" in outcome ? outcome.done : "";
  const link: LinkShown | undefined = outcome && "link" in outcome ? outcome.link : undefined;
  useEffect(() => {
    if (outcome?.focus && "done" in outcome) done.current?.focus();
  }, [outcome]);
  return (
    <div className="team-outcome">
      <div role="status">
        <p ref={done} className="confirmation" tabIndex={-1}>
          {message}
        </p>
        {link && <AccountLinkOnce id={linkId} shown={link} />}
      </div>
      <FormError message={outcome && "error" in outcome ? outcome.error : undefined} />
    </div>
  );
}

/** Runs one change at a time for a list's buttons, and keeps what it did for TeamOutcomeView. */
export type TeamAct = (change: () => Promise<TeamOutcome>) => Promise<void>;

/**
 * A list's changes and their outcome. While one runs, the buttons are
 * aria-disabled rather than disabled, and a click does nothing: a disabled
 * button loses keyboard focus, and the owner would start again from the top
 * of the page after each change.
 */
export function useTeamChanges(): { outcome: TeamOutcome; pending: boolean; act: TeamAct } {
  const [outcome, setOutcome] = useState<TeamOutcome>(null);
  const [pending, setPending] = useState(false);
  const running = useRef(false);
  const act: TeamAct = async (change) => {
    if (running.current) return;
    running.current = true;
    setPending(true);
    setOutcome(null);
    try {
      setOutcome(await change());
    } finally {
      running.current = false;
      setPending(false);
    }
  };
  return { outcome, pending, act };
}
