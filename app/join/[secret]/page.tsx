import type { Metadata } from "next";
import { JoinTeamForm } from "@/components/sign-in/join-team-form";
import { UnusableLink } from "@/components/sign-in/unusable-link";
import { openLinkFrom } from "@/lib/auth/accounts/link-attempts";
import { mailConfigured } from "@/lib/mail/mailer";
import { requestClientAddress } from "@/lib/server/request-client-address";

export const dynamic = "force-dynamic";
// The URL holds the invitation's secret: no other site is told it (Referer), and no search engine keeps it.
export const metadata: Metadata = { title: "Join Plant Store", referrer: "no-referrer", robots: { index: false, follow: false } };

type Params = Promise<{ secret: string }>;

/** Where an invitation link leads (issue 21): the invitee chooses a name and password, and is signed in. */
export default async function JoinPage({ params }: { params: Params }) {
  const { secret } = await params;
  const opened = await openLinkFrom(await requestClientAddress(), "invitation", secret);
  if (opened.state !== "valid") return <UnusableLink purpose="invitation" refusal={opened} resetByEmail={mailConfigured()} />;
  const { email, role } = opened.link;
  return (
    <main id="main" className="narrow">
      <h1>Join Plant Store</h1>
      <p>
        This invitation is for <strong>{email}</strong>, to join the store&apos;s team as {role === "owner" ? "an owner" : "staff"}. Choose the name your colleagues will see, and your password.
      </p>
      <JoinTeamForm secret={secret} email={email} />
    </main>
  );
}
