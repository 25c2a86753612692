import type { Metadata } from "next";
import { AccountProfileForm } from "@/components/account-profile-form";
import { PasswordChangeForm } from "@/components/password-change-form";
import { SignOutEverywhere } from "@/components/sign-out-everywhere";
import { requireStaffSession } from "@/lib/auth/require-staff";

export const metadata: Metadata = { title: "Your account · Plant Store" };

// Everyone's own account: owners and staff alike change only their own here.
export default async function AccountPage() {
  const { user, standing } = await requireStaffSession("/account");
  return (
    <>
      <h1>Your account</h1>
      {standing === "set_up" && (
        // Where the policy sends whoever it holds (lib/auth/require-staff.ts SECOND_FACTOR_SETUP_PATH).
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
        <PasswordChangeForm email={user.email} />
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <p>Left signed in on a shared tablet or a lost phone? End every other session at once: you stay signed in here.</p>
        <SignOutEverywhere />
      </section>
    </>
  );
}
