"use server";

import { redirect } from "next/navigation";
import { createFirstOwner } from "@/lib/auth/users";
import { sentence } from "@/lib/validations/sentence";
import { ownerSetupSchema } from "@/lib/validations/user";

/** Creates the owner account on first run; returns what went wrong, if anything. */
export async function setUpOwner(values: unknown): Promise<string | undefined> {
  const parsed = ownerSetupSchema.safeParse(values);
  // Shown on the form, as its own messages are: in sentences.
  if (!parsed.success) return parsed.error.issues.map((issue) => sentence(issue.message)).join(" ");
  // Refused unless the database has no account at all, decided atomically.
  const owner = await createFirstOwner(parsed.data);
  if (!owner) return "This Plant Store already has an owner. Sign in instead.";
  redirect("/sign-in?setup=done");
}
