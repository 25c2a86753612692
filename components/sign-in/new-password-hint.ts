import { PASSWORD_MIN } from "@/lib/validations/user-options";

/** Under every field that sets a password; the strength rule itself is the server's (lib/auth/passwords/password-strength.ts). */
export const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN} characters; a passphrase of a few unrelated words is easiest.`;
