"use server";

import { redirect } from "next/navigation";
import { actionOrigin } from "@/lib/activity/action-attribution";
import { WeakPasswordError } from "@/lib/auth/account-errors";
import { createFirstOwner, type StaffUser } from "@/lib/auth/accounts/users";
import { sentence } from "@/lib/validations/sentence";
import { ownerSetupSchema } from "@/lib/validations/user";

/** Creates the owner account on first run; returns what went wrong, if anything. */
export async function setUpOwner(values: unknown): Promise<string | undefined> {
  const parsed = ownerSetupSchema.safeParse(values);
  // Shown on the form, as its own messages are: in sentences.
  if (!parsed.success) return parsed.error.issues.map((issue) => sentence(issue.message)).join(" ");
  // Refused unless the database has no account at all, decided atomically.
  let owner: StaffUser | null;
  try {
    owner = await createFirstOwner(parsed.data, await actionOrigin());
  } catch (error) {
    // The strength rule (lib/auth/passwords/password-strength.ts) says why, for the form.
    if (error instanceof WeakPasswordError) return sentence(error.message);
    throw error;
  }
  if (!owner) return "This Plant Store already has an owner. Sign in instead.";
  redirect("/sign-in?setup=done");
}
