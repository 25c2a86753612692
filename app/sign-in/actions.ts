"use server";

import { headers } from "next/headers";
import { beginPasskeySignIn, type PasskeyAuthentication } from "@/lib/auth/second-factors/passkey-sign-in";
import { relyingParty } from "@/lib/auth/second-factors/passkey-relying-party";
import { requestClientAddress } from "@/lib/server/request-client-address";
import { tooManyPasskeyChallenges } from "@/lib/validations/rate-limit-sentences";

// Signing in with a passkey, first step: anyone may ask for a challenge (no
// session exists yet), within their address's allowance; it is kept five
// minutes and answers one sign-in. next-auth's "passkey" provider checks the
// answer (lib/auth/sessions/auth-options.ts).

export async function startPasskeySignIn(): Promise<PasskeyAuthentication | { error: string }> {
  const rp = relyingParty(await headers());
  if (!rp) return { error: "The app cannot tell its own address for passkeys: ask the store's operator to set NEXTAUTH_URL." };
  const started = await beginPasskeySignIn(rp, await requestClientAddress());
  return "waitSeconds" in started ? { error: tooManyPasskeyChallenges(started.waitSeconds) } : started;
}
