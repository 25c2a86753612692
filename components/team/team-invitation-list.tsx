"use client";

import { renewInvitationLink, withdrawInvitationLink } from "@/app/(staff)/team/actions";
import { CardTable, type CardTableColumn } from "@/components/shared/card-table";
import { LocalTime } from "@/components/shared/local-time";
import { ScriptButton } from "@/components/shared/script-button";
import { TeamOutcomeView, useTeamChanges } from "@/components/team/team-outcome";
import type { Role } from "@/lib/validations/user-options";

/** A pending invitation as the team page lists it (lib/auth/accounts/team.ts's PendingInvitation). */
export type TeamInvitationRow = { id: string; email: string; role: Role; expiresAt: Date };

/**
 * The invitations not yet accepted, each to withdraw or to replace with a new
 * link (the old one stops working). Either takes the row away, so what it did
 * is told above the table, and takes focus.
 */
export function TeamInvitationList({ invitations }: { invitations: TeamInvitationRow[] }) {
  const { outcome, pending, act } = useTeamChanges();

  const columns: CardTableColumn<TeamInvitationRow>[] = [
    { header: "Role", cell: (invitation) => invitation.role },
    { header: "Status", cell: () => "invited" },
    { header: "Expires", cell: (invitation) => <LocalTime date={invitation.expiresAt} /> },
    {
      header: "Actions",
      cell: (invitation) => (
        <div className="row-actions">
          <ScriptButton
            className="secondary"
            aria-disabled={pending}
            aria-label={`New link for ${invitation.email}`}
            onClick={() => act(() => renewInvitationLink(invitation.id))}
          >
            New link
          </ScriptButton>
          <ScriptButton
            className="danger"
            aria-disabled={pending}
            aria-label={`Withdraw the invitation for ${invitation.email}`}
            onClick={() => act(async () => ({ ...(await withdrawInvitationLink(invitation.id, invitation.email)), focus: true }))}
          >
            Withdraw
          </ScriptButton>
        </div>
      ),
    },
  ];

  return (
    <>
      <TeamOutcomeView outcome={outcome} linkId="renewed-invitation-link" />
      {invitations.length === 0 ? (
        <p>No invitations are waiting.</p>
      ) : (
        <CardTable
          labelledBy="invitation-list-heading"
          rowHeader={{ header: "Email", cell: (invitation) => invitation.email, breakAnywhere: true }}
          columns={columns}
          rows={invitations}
          rowKey={(invitation) => invitation.id}
        />
      )}
    </>
  );
}
