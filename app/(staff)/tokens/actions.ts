"use server";

import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { actionAttribution } from "@/lib/activity/action-attribution";
import { requireStaff, requireStaffSession } from "@/lib/auth/sessions/require-staff";
import { mayCreateApiToken } from "@/lib/auth/second-factors/second-factor-policy";
import { createTokenFor, revokeTokenFor } from "@/lib/auth/api-tokens/token-access";
import { apiTokenFieldSchema, newApiTokenSchema, TOKEN_LIFETIMES } from "@/lib/validations/api-token";
import { fieldErrors, type FormRefusal } from "@/lib/validations/field-errors";

// Server actions are public endpoints: each one checks the session itself.

export type CreateTokenResult =
  /** The new token, shown once: it is not stored and cannot be shown again. */
  | { created: { token: string; label: string } }
  | FormRefusal<z.infer<typeof apiTokenFieldSchema>>;

/** Creates a token for the signed-in staff member from the form's raw values, parsed with the form's own schema. */
export async function createToken(values: unknown): Promise<CreateTokenResult> {
  const { user, factor } = await requireStaffSession("/tokens");
  // requireStaffSession already sends such a session to sign in again; said here too, since a token outlives it.
  if (!(await mayCreateApiToken(user.id, factor))) return { errors: [{ field: null, message: SIGN_IN_WITH_SECOND_FACTOR }] };
  const parsed = newApiTokenSchema.safeParse(values);
  if (!parsed.success) {
    return {
      errors: fieldErrors(parsed.error, apiTokenFieldSchema),
    };
  }
  const { label, scopes, expires } = parsed.data;
  const { token, info } = await createTokenFor(user, { label, scopes, lifetimeSeconds: TOKEN_LIFETIMES[expires].seconds }, await actionAttribution(user));
  revalidatePath("/tokens");
  return { created: { token, label: info.label } };
}

const SIGN_IN_WITH_SECOND_FACTOR = "Your account has a second factor: sign in again with it before you create an API token.";

export async function revokeToken(form: FormData): Promise<void> {
  const user = await requireStaff("/tokens");
  const tokenId = form.get("tokenId");
  // Someone else's token looks exactly like a missing one: nothing happens.
  if (typeof tokenId === "string") await revokeTokenFor(user, tokenId, await actionAttribution(user));
  revalidatePath("/tokens");
}
