import type { Metadata } from "next";
import { AccountProfileForm } from "@/components/account/account-profile-form";
import { PasskeyAddForm } from "@/components/account/passkey-add-form";
import { PasskeyList } from "@/components/account/passkey-list";
import { PasswordChangeForm } from "@/components/account/password-change-form";
import { SignOutEverywhere } from "@/components/account/sign-out-everywhere";
import { TotpSettings } from "@/components/account/totp-settings";
import { LinkedIdentity } from "@/components/account/linked-identity";
import { linkedIdentity, ownWaysIn } from "@/lib/auth/single-sign-on/sso-identities";
import { env } from "@/lib/server/env";
import { listPasskeys } from "@/lib/auth/second-factors/passkeys";
import { requireStaffSession } from "@/lib/auth/sessions/require-staff";
import { totpStatus } from "@/lib/auth/second-factors/totp-factor";

export const metadata: Metadata = { title: "Your account · Plant Store" };

// Everyone's own account: owners and staff alike change only their own here.
export default async function AccountPage() {
  const { user, standing } = await requireStaffSession("/account");
  const totp = await totpStatus(user.id);
  const passkeys = await listPasskeys(user.id);
  const [identity, waysIn] = await Promise.all([linkedIdentity(user.id), ownWaysIn(user.id)]);
  const sso = env().singleSignOn;
  return (
    <>
      <h1>Your account</h1>
      {standing === "set_up" && (
        // Where the policy sends whoever it holds (lib/auth/sessions/require-staff.ts SECOND_FACTOR_SETUP_PATH).
        <section id="second-factor" aria-labelledby="second-factor-required-heading" className="notice">
          <h2 id="second-factor-required-heading">Set up a second factor to go on</h2>
          <p>
            This store requires a second factor for you: add an authenticator app or a passkey on this page. Until you have, the other pages send you
            back here.
          </p>
        </section>
      )}
      <p>
        You are {user.role === "owner" ? "an owner" : "staff"} of this store.
      </p>
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <AccountProfileForm name={user.name} email={user.email} />
      </section>
      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        {waysIn.password ? (
          <PasswordChangeForm email={user.email} />
        ) : (
          // An account made by single sign-on (issue 34) has none until its owner sets one with a reset link.
          <p>You have no password: you sign in with the company sign-in{waysIn.passkey ? " or a passkey" : ""}. To set one, ask an owner for a password reset link.</p>
        )}
      </section>
      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <p>
          A passkey signs you in without your password, with your phone, computer or security key and its fingerprint, face or PIN. Adding or removing one signs you
          out everywhere else.
        </p>
        <PasskeyList
          passkeys={passkeys.map((passkey) => ({ id: passkey.id, name: passkey.name, createdAt: passkey.createdAt.toISOString(), lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null }))}
        />
        <h3>Add a passkey</h3>
        <PasskeyAddForm />
      </section>
      <section aria-labelledby="totp-heading">
        <h2 id="totp-heading">Authenticator app</h2>
        <TotpSettings
          email={user.email}
          status={{ on: totp.state === "on", confirmedAt: totp.confirmedAt?.toISOString() ?? null, recoveryCodesLeft: totp.recoveryCodesLeft }}
        />
      </section>
      {(identity || sso.state !== "off") && (
        <section aria-labelledby="sso-heading">
          <h2 id="sso-heading">Company sign-in</h2>
          {identity ? (
            <LinkedIdentity provider={new URL(identity.issuer).host} email={identity.email} linkedAt={identity.linkedAt.toISOString()} canUnlink={waysIn.password || waysIn.passkey} />
          ) : (
            <p>No company account is linked to yours. Sign in once with the company sign-in, with your verified email, and it is linked.</p>
          )}
        </section>
      )}
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <p>Left signed in on a shared tablet or a lost phone? End every other session at once: you stay signed in here.</p>
        <SignOutEverywhere />
      </section>
    </>
  );
}
