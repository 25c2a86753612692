"use client";

import { useRouter } from "next/navigation";
import { ScriptButton } from "@/components/shared/script-button";
import { announceSignOut } from "@/lib/client/signed-out";

export function SignOutButton() {
  const router = useRouter();
  async function leave() {
    // next-auth's client (about 10 kB of gzipped script with its helpers) is loaded by the one click that
    // needs it, not by every staff page (issue 20).
    const { signOut } = await import("next-auth/react");
    // next-auth would redirect to its configured base URL, which without
    // NEXTAUTH_URL is not this host; go to sign-in ourselves.
    await signOut({ redirect: false });
    // The other tabs' pages stop following the store's changes (lib/client/signed-out.ts).
    announceSignOut();
    router.replace("/sign-in");
    router.refresh();
  }
  return (
    <ScriptButton className="link-button" onClick={leave}>
      Sign out
    </ScriptButton>
  );
}
