import type { Metadata } from "next";
import { TeamInvitationList } from "@/components/team-invitation-list";
import { TeamInviteForm } from "@/components/team-invite-form";
import { TeamMemberList } from "@/components/team-member-list";
import { requireOwner } from "@/lib/auth/require-staff";
import { listTeam } from "@/lib/auth/team";

export const metadata: Metadata = { title: "Team · Plant Store" };

// Owners only (issue 21): who is on the store's team, and the invitations
// still waiting. Accounts are deactivated, never deleted, so that what they
// did stays theirs.
export default async function TeamPage() {
  const owner = await requireOwner("/team");
  const { members, invitations } = await listTeam();
  return (
    <>
      <h1>Team</h1>
      <p>
        Everyone who can sign in to Plant Store, and the people invited to. Staff manage plants and their own API tokens; owners also manage the team
        and the webhooks. The store always keeps one active owner at least.
      </p>
      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite someone</h2>
        <TeamInviteForm />
      </section>
      <section aria-labelledby="member-list-heading">
        <h2 id="member-list-heading">Accounts</h2>
        <TeamMemberList
          selfId={owner.id}
          // What the table shows, and nothing more, goes to the browser.
          members={members.map(({ id, name, email, role, status, lastSignInAt, liveTokens }) => ({ id, name, email, role, status, lastSignInAt, liveTokens }))}
        />
      </section>
      <section aria-labelledby="invitation-list-heading">
        <h2 id="invitation-list-heading">Invitations</h2>
        <TeamInvitationList invitations={invitations.map(({ id, email, role, expiresAt }) => ({ id, email, role, expiresAt }))} />
      </section>
    </>
  );
}
