import type { Metadata } from "next";
import { SecondFactorPolicyForm } from "@/components/team/second-factor-policy-form";
import { SignInMethodsForm } from "@/components/team/sign-in-methods-form";
import { readSignInMethods } from "@/lib/auth/single-sign-on/sign-in-methods";
import { linkedIdentities } from "@/lib/auth/single-sign-on/sso-identities";
import { env } from "@/lib/server/env";
import { TeamInvitationList } from "@/components/team/team-invitation-list";
import { TeamInviteForm } from "@/components/team/team-invite-form";
import { LiveTeam } from "@/components/team/live-team";
import { TeamMemberList } from "@/components/team/team-member-list";
import { requireOwner } from "@/lib/auth/sessions/require-staff";
import { readSecondFactorPolicy } from "@/lib/auth/second-factors/second-factor-policy";
import { listTeam } from "@/lib/auth/accounts/team";
import { newestActivityPosition } from "@/lib/live/activity-reads";

export const metadata: Metadata = { title: "Team · Plant Store" };

// Owners only (issue 21): who is on the store's team, and the invitations
// still waiting. Accounts are deactivated, never deleted, so that what they
// did stays theirs.
export default async function TeamPage() {
  const owner = await requireOwner("/team");
  // Read before the team: whatever changes it meanwhile reads the page again.
  const position = await newestActivityPosition();
  const [{ members, invitations }, policy, methods, identities] = await Promise.all([listTeam(), readSecondFactorPolicy(), readSignInMethods(), linkedIdentities()]);
  const sso = env().singleSignOn;
  return (
    <>
      <h1>Team</h1>
      <LiveTeam after={position} />
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
          members={members.map(({ id, name, email, role, status, lastSignInAt, liveTokens, hasSecondFactor }) => ({
            id,
            name,
            email,
            role,
            status,
            lastSignInAt,
            liveTokens,
            hasSecondFactor,
            ssoEmail: identities.get(id)?.email ?? null,
          }))}
        />
      </section>
      <section aria-labelledby="invitation-list-heading">
        <h2 id="invitation-list-heading">Invitations</h2>
        <TeamInvitationList invitations={invitations.map(({ id, email, role, expiresAt }) => ({ id, email, role, expiresAt }))} />
      </section>
      <section aria-labelledby="second-factor-policy-heading">
        <h2 id="second-factor-policy-heading">Second factors</h2>
        <p>
          A second factor (an authenticator app or a passkey) keeps a stolen password from being a whole account. Whoever must have one and has none is sent
          to set one up right after signing in, and can do nothing else until they have. Set up your own on your Account page first. Someone who lost
          theirs has them cleared in the list above, and signs in with their password alone.
        </p>
        <SecondFactorPolicyForm policy={policy} />
      </section>
      {(sso.state !== "off" || methods !== "all") && (
        <section aria-labelledby="sign-in-methods-heading">
          <h2 id="sign-in-methods-heading">Sign-in methods</h2>
          <p>
            With single sign-on only, staff sign in with the company sign-in and nothing else: when someone leaves, disabling
            them at your company&apos;s provider closes Plant Store too. Owners keep their password and passkeys, as a way back when the provider is down. A
            single sign-on passes a second factor only when the provider itself asked for one.
          </p>
          <SignInMethodsForm methods={methods} ssoConfigured={sso.state === "on"} />
        </section>
      )}
    </>
  );
}
