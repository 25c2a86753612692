"use client";

import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";

export function SignOutButton() {
  const router = useRouter();
  async function leave() {
    // next-auth would redirect to its configured base URL, which without
    // NEXTAUTH_URL is not this host; go to sign-in ourselves.
    await signOut({ redirect: false });
    router.replace("/sign-in");
    router.refresh();
  }
  return (
    <button type="button" className="link-button" onClick={leave}>
      Sign out
    </button>
  );
}
