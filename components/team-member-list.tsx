"use client";

import { useRef } from "react";
import { changeMemberRole, deactivateMember, makePasswordReset, reactivateMember } from "@/app/(staff)/team/actions";
import { ClearFactorsDialog } from "@/components/clear-factors-dialog";
import { CardTable, type CardTableColumn } from "@/components/card-table";
import { LocalTime } from "@/components/local-time";
import { type TeamAct, TeamOutcomeView, useTeamChanges } from "@/components/team-outcome";
import type { Role } from "@/lib/validations/user-options";

/** An account as the team page lists it (lib/auth/team.ts's TeamMember, as much as the page shows). */
export type TeamMemberRow = {
  id: string;
  name: string;
  email: string;
  role: Role;
  status: "active" | "deactivated";
  lastSignInAt: Date | null;
  liveTokens: number;
  hasSecondFactor: boolean;
};

/**
 * Every account, with what an owner can do to each: change its role,
 * deactivate it (once confirmed) or reactivate it, and make a password reset
 * link for it. What the last change did, or why it was refused, is told above
 * the table. `selfId`: the signed-in owner, whose own row says so.
 */
export function TeamMemberList({ members, selfId }: { members: TeamMemberRow[]; selfId: string }) {
  const { outcome, pending, act } = useTeamChanges();

  const columns: CardTableColumn<TeamMemberRow>[] = [
    { header: "Email", cell: (member) => member.email, breakAnywhere: true },
    { header: "Role", cell: (member) => member.role },
    { header: "Status", cell: (member) => member.status },
    { header: "Last sign-in", cell: (member) => <LocalTime date={member.lastSignInAt} /> },
    { header: "API tokens", cell: (member) => member.liveTokens },
    { header: "Second factor", cell: (member) => (member.hasSecondFactor ? "yes" : "none") },
    { header: "Actions", cell: (member) => <MemberActions member={member} self={member.id === selfId} pending={pending} act={act} /> },
  ];
  const name: CardTableColumn<TeamMemberRow> = { header: "Name", cell: (member) => (member.id === selfId ? `${member.name} (you)` : member.name), breakAnywhere: true };

  return (
    <>
      <TeamOutcomeView outcome={outcome} linkId="password-reset-link" />
      <CardTable labelledBy="member-list-heading" rowHeader={name} columns={columns} rows={members} rowKey={(member) => member.id} />
    </>
  );
}

function MemberActions({ member, self, pending, act }: { member: TeamMemberRow; self: boolean; pending: boolean; act: TeamAct }) {
  const other: Role = member.role === "owner" ? "staff" : "owner";
  return (
    <div className="row-actions">
      <button type="button" className="secondary" aria-disabled={pending} aria-label={`Make ${other} ${member.name}`} onClick={() => act(() => changeMemberRole(member.id, other))}>
        Make {other}
      </button>
      {member.status === "active" ? (
        <>
          <button type="button" className="secondary" aria-disabled={pending} aria-label={`Password reset link for ${member.name}`} onClick={() => act(() => makePasswordReset(member.id))}>
            Password reset link
          </button>
          {member.hasSecondFactor && !self && <ClearFactorsDialog member={member} pending={pending} act={act} />}
          <DeactivateDialog member={member} self={self} pending={pending} act={act} />
        </>
      ) : (
        <button type="button" className="secondary" aria-disabled={pending} aria-label={`Reactivate ${member.name}`} onClick={() => act(async () => ({ ...(await reactivateMember(member.id)), focus: true }))}>
          Reactivate
        </button>
      )}
    </div>
  );
}

/** Deactivates the account after a confirmation that names it, in a modal dialog (the browser's own: it keeps focus inside and closes on Escape). */
function DeactivateDialog({ member, self, pending, act }: { member: TeamMemberRow; self: boolean; pending: boolean; act: TeamAct }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const ids = { title: `deactivate-${member.id}-title`, text: `deactivate-${member.id}-text` };

  function open() {
    if (pending) return;
    dialog.current?.showModal();
    // The safe choice first: Enter or Space on the focused button does not deactivate.
    cancel.current?.focus();
  }

  function confirm() {
    return act(async () => {
      const result = await deactivateMember(member.id);
      dialog.current?.close();
      // Its row's Deactivate button gives way to Reactivate: the outcome takes focus.
      return { ...result, focus: true };
    });
  }

  return (
    <>
      <button type="button" className="danger" aria-disabled={pending} aria-label={`Deactivate ${member.name}`} onClick={open}>
        Deactivate
      </button>
      <dialog ref={dialog} aria-labelledby={ids.title} aria-describedby={ids.text} className="confirm-dialog">
        <h2 id={ids.title}>Deactivate {member.name}?</h2>
        <p id={ids.text}>
          {self ? "You" : member.name} can no longer sign in: {self ? "you are signed out" : "their sessions end"}, and {self ? "your" : "their"} API tokens are
          refused until the account is reactivated. The account and its records are kept.
        </p>
        <div className="dialog-buttons">
          <button type="button" className="danger" onClick={confirm} disabled={pending}>
            {pending ? "Deactivating…" : "Yes, deactivate"}
          </button>
          <button type="button" ref={cancel} onClick={() => dialog.current?.close()} disabled={pending}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
