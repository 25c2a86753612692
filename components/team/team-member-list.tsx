"use client";

import { changeMemberRole, clearMemberFactors, deactivateMember, makePasswordReset, reactivateMember, unlinkMemberIdentity } from "@/app/(staff)/team/actions";
import { CardTable, type CardTableColumn } from "@/components/shared/card-table";
import { LocalTime } from "@/components/shared/local-time";
import { ScriptButton } from "@/components/shared/script-button";
import { MemberConfirmDialog } from "@/components/team/member-confirm-dialog";
import { type TeamAct, TeamOutcomeView, useTeamChanges } from "@/components/team/team-outcome";
import type { Role } from "@/lib/validations/user-options";

/** An account as the team page lists it (lib/auth/accounts/team.ts's TeamMember, as much as the page shows). */
export type TeamMemberRow = {
  id: string;
  name: string;
  email: string;
  role: Role;
  status: "active" | "deactivated";
  lastSignInAt: Date | null;
  liveTokens: number;
  hasSecondFactor: boolean;
  /** The company account linked by single sign-on (issue 34), or null. */
  ssoEmail: string | null;
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
    { header: "Single sign-on", cell: (member) => member.ssoEmail ?? "no", breakAnywhere: true },
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
      <ScriptButton className="secondary" aria-disabled={pending} aria-label={`Make ${other} ${member.name}`} onClick={() => act(() => changeMemberRole(member.id, other))}>
        Make {other}
      </ScriptButton>
      {member.status === "active" ? (
        <>
          <ScriptButton className="secondary" aria-disabled={pending} aria-label={`Password reset link for ${member.name}`} onClick={() => act(() => makePasswordReset(member.id))}>
            Password reset link
          </ScriptButton>
          {member.hasSecondFactor && !self && <ClearFactorsDialog member={member} pending={pending} act={act} />}
          {member.ssoEmail !== null && (
            <ScriptButton className="secondary" aria-disabled={pending} aria-label={`Unlink the company account of ${member.name}`} onClick={() => act(() => unlinkMemberIdentity(member.id))}>
              Unlink company account
            </ScriptButton>
          )}
          <DeactivateDialog member={member} self={self} pending={pending} act={act} />
        </>
      ) : (
        <ScriptButton className="secondary" aria-disabled={pending} aria-label={`Reactivate ${member.name}`} onClick={() => act(async () => ({ ...(await reactivateMember(member.id)), focus: true }))}>
          Reactivate
        </ScriptButton>
      )}
    </div>
  );
}

/** Deactivates the account, once confirmed. */
function DeactivateDialog({ member, self, pending, act }: { member: TeamMemberRow; self: boolean; pending: boolean; act: TeamAct }) {
  return (
    <MemberConfirmDialog
      id={`deactivate-${member.id}`}
      pending={pending}
      act={act}
      button={{ text: "Deactivate", label: `Deactivate ${member.name}` }}
      title={`Deactivate ${member.name}?`}
      text={
        <>
          {self ? "You" : member.name} can no longer sign in: {self ? "you are signed out" : "their sessions end"}, and {self ? "your" : "their"} API tokens are
          refused until the account is reactivated. The account and its records are kept.
        </>
      }
      confirm={{ text: "Yes, deactivate", pending: "Deactivating…" }}
      run={() => deactivateMember(member.id)}
    />
  );
}

/** Clears another person's second factors (a lost phone must not lose the account), once confirmed; owners remove their own on the Account page. */
function ClearFactorsDialog({ member, pending, act }: { member: TeamMemberRow; pending: boolean; act: TeamAct }) {
  return (
    <MemberConfirmDialog
      id={`clear-factors-${member.id}`}
      pending={pending}
      act={act}
      button={{ text: "Clear second factors", label: `Clear second factors of ${member.name}` }}
      title={`Clear the second factors of ${member.name}?`}
      text="Their authenticator app, recovery codes and passkeys are removed, and their sessions end. They sign in with their password alone, and must set up a second factor again if the store requires one. Do this only when you know it is them asking."
      confirm={{ text: "Yes, clear them", pending: "Clearing…" }}
      run={() => clearMemberFactors(member.id)}
    />
  );
}
