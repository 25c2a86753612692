import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN, ROLES } from "@/lib/validations/user-options";

// Schemas for staff accounts, shared by the setup and sign-in forms, their
// server actions and the user CLI. Imports only zod: safe in the browser. The
// roles, the password's length and the sign-in refusal's code are in
// lib/validations/user-options.ts, so that the forms show them without
// loading zod (issue 20).

export { PASSWORD_MAX, PASSWORD_MIN, type Role, ROLES, SIGN_IN_RATE_LIMITED } from "@/lib/validations/user-options";

/** Emails are compared case-insensitively, so they are stored lower-cased. */
export const emailSchema = z
  .string()
  .trim()
  .min(1, { error: "email is required", abort: true })
  .max(254, "email must be at most 254 characters")
  .pipe(z.email("email must be an email address such as ana@example.com"))
  .transform((email) => email.toLowerCase());

export const personNameSchema = z
  .string()
  .trim()
  .min(1, "name is required")
  .max(100, "name must be at most 100 characters");

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`);

export const roleSchema = z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}` });

export const newUserSchema = z.object({
  email: emailSchema,
  name: personNameSchema,
  role: roleSchema,
  password: passwordSchema,
});
export type NewUser = z.output<typeof newUserSchema>;

/** The first-run form: the first account is always the owner. */
export const ownerSetupSchema = newUserSchema.omit({ role: true });
export type OwnerSetupValues = z.input<typeof ownerSetupSchema>;

/** An owner's invitation to join the team (issue 21). */
export const newInvitationSchema = z.object({ email: emailSchema, role: roleSchema });
export type NewInvitation = z.output<typeof newInvitationSchema>;

/**
 * Accepting an invitation: the email and role are the invitation's. Whether
 * the password is too easy to guess is decided on the server
 * (lib/auth/passwords/password-strength.ts), whose dictionaries stay out of the browser.
 */
export const invitationAcceptanceSchema = z.object({ name: personNameSchema, password: passwordSchema });
export type InvitationAcceptance = z.output<typeof invitationAcceptanceSchema>;
export type InvitationAcceptanceValues = z.input<typeof invitationAcceptanceSchema>;

/** A new password, from a reset link. */
export const newPasswordSchema = z.object({ password: passwordSchema });
export type NewPasswordValues = z.input<typeof newPasswordSchema>;

/** "Forgot your password?": the email to send a reset link to, if an account has it. */
export const passwordResetRequestSchema = z.object({ email: emailSchema });
export type PasswordResetRequestValues = z.input<typeof passwordResetRequestSchema>;

/** A person's own name and email (the Account page); the current password is needed only to change the email. */
export const profileChangeSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  currentPassword: z.string().max(PASSWORD_MAX, `current password must be at most ${PASSWORD_MAX} characters`).default(""),
});
export const profileChangeFieldSchema = profileChangeSchema.keyof();
export type ProfileChangeValues = z.input<typeof profileChangeSchema>;
export type ProfileChange = z.output<typeof profileChangeSchema>;

/** A person's new password, given their current one (the Account page). */
export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, "current password is required").max(PASSWORD_MAX, `current password must be at most ${PASSWORD_MAX} characters`),
  newPassword: z
    .string()
    .min(PASSWORD_MIN, `new password must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `new password must be at most ${PASSWORD_MAX} characters`),
});
export type PasswordChangeValues = z.input<typeof passwordChangeSchema>;
export const passwordChangeFieldSchema = passwordChangeSchema.keyof();

// Sign-in checks only presence: the rules for new passwords must not lock out
// an account made under older rules.
export const signInSchema = z.object({
  email: z.string().trim().min(1, "email is required"),
  password: z.string().min(1, "password is required"),
});
export type SignInValues = z.input<typeof signInSchema>;

/**
 * A one-time code from an authenticator app (six digits) or a recovery code
 * (ten letters and digits, a dash or spaces allowed): which one is decided
 * on the server (lib/auth/second-factors/second-factor.ts).
 */
export const oneTimeCodeSchema = z.string().trim().min(1, "code is required").max(32, "code must be at most 32 characters");

/** Sign-in's second step: the ticket the first step answered, and a code. */
export const signInCodeSchema = z.object({ ticket: z.string().min(1).max(1024), code: oneTimeCodeSchema });
export type SignInCodeValues = z.input<typeof signInCodeSchema>;

/** The first code from the app being set up (the Account page). */
export const totpConfirmationSchema = z.object({ code: oneTimeCodeSchema });
export type TotpConfirmationValues = z.input<typeof totpConfirmationSchema>;
export const totpConfirmationFieldSchema = totpConfirmationSchema.keyof();

/** Turning the app off: the password and a code (or a recovery code). */
export const totpDisableSchema = z.object({
  currentPassword: z.string().min(1, "current password is required").max(PASSWORD_MAX, `current password must be at most ${PASSWORD_MAX} characters`),
  code: oneTimeCodeSchema,
});
export type TotpDisableValues = z.input<typeof totpDisableSchema>;
export const totpDisableFieldSchema = totpDisableSchema.keyof();
