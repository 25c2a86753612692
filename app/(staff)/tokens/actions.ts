"use server";

import { revalidatePath } from "next/cache";
import { requireStaff } from "@/lib/require-staff";
import { createTokenFor, revokeTokenFor } from "@/lib/token-access";
import { newApiTokenSchema, TOKEN_LIFETIMES } from "@/lib/validations/api-token";

// Server actions are public endpoints: each one checks the session itself.

export type CreateTokenState = {
  /** The new token, shown once: it is not stored and cannot be shown again. */
  created?: { token: string; label: string };
  errors?: { label?: string; scopes?: string; expires?: string };
};

export async function createToken(_previous: CreateTokenState, form: FormData): Promise<CreateTokenState> {
  const user = await requireStaff("/tokens");
  const parsed = newApiTokenSchema.safeParse({ label: form.get("label"), scopes: form.getAll("scopes"), expires: form.get("expires") });
  if (!parsed.success) {
    const errors: NonNullable<CreateTokenState["errors"]> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === "label" || field === "scopes" || field === "expires") errors[field] ??= issue.message;
    }
    return { errors };
  }
  const { label, scopes, expires } = parsed.data;
  const { token, info } = await createTokenFor(user, { label, scopes, lifetimeSeconds: TOKEN_LIFETIMES[expires].seconds });
  revalidatePath("/tokens");
  return { created: { token, label: info.label } };
}

export async function revokeToken(form: FormData): Promise<void> {
  const user = await requireStaff("/tokens");
  const tokenId = form.get("tokenId");
  // Someone else's token looks exactly like a missing one: nothing happens.
  if (typeof tokenId === "string") await revokeTokenFor(user, tokenId);
  revalidatePath("/tokens");
}
