import { z } from "zod";

// Schemas for passkeys (issue 24): the name a person gives one, and what the
// browser's WebAuthn calls hand back (@simplewebauthn/browser's JSON forms), as
// far as the server needs to trust their shape before the library verifies them.
// Imports only zod: safe in the browser.

export const PASSKEY_NAME_MAX = 60;

export const passkeyNameSchema = z.string().trim().min(1, "name is required").max(PASSKEY_NAME_MAX, `name must be at most ${PASSKEY_NAME_MAX} characters`);

/** The Account page's form: what to call the new passkey. */
export const addPasskeySchema = z.object({ name: passkeyNameSchema });
export type AddPasskeyValues = z.input<typeof addPasskeySchema>;

// Base64url fields, bounded: an attestation with certificates is a few kB; nothing a browser sends is near 32 kB.
const base64url = z.string().max(32_000).regex(/^[A-Za-z0-9_-]*$/, "must be base64url");

/** A RegistrationResponseJSON: navigator.credentials.create()'s answer. */
export const registrationResponseSchema = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** An AuthenticationResponseJSON: navigator.credentials.get()'s answer. */
export const authenticationResponseSchema = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** The Account page's second step: the passkey made for the challenge it was given, and its name. */
export const newPasskeySchema = z.object({ challengeId: z.uuid(), name: passkeyNameSchema, response: registrationResponseSchema });
export type NewPasskey = z.output<typeof newPasskeySchema>;

/**
 * What the sign-in page posts to next-auth's "passkey" provider: the challenge's
 * id and the assertion, as JSON text (next-auth's credentials are strings).
 */
export const passkeySignInSchema = z.object({
  challengeId: z.uuid(),
  response: z
    .string()
    .max(64_000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be JSON" });
        return z.NEVER;
      }
    })
    .pipe(authenticationResponseSchema),
});

export const removePasskeySchema = z.object({ id: base64url.min(1).max(1_400) });
