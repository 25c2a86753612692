import type { LinkPurpose, LinkState } from "@/lib/validations/user-options";

// What can go wrong with staff accounts and their one-time links, in the data
// layer's own terms. The pages, the server actions and the CLI each say it in
// their own way; every message is written to be shown as it is, and none
// carries a link's secret or a password.

/** An account already has this email (a new account, an invitation, or accepting one). */
export class EmailTakenError extends Error {
  override name = "EmailTakenError";

  constructor(readonly email: string) {
    super(`an account with email ${email} already exists`);
  }
}

export class AccountNotFoundError extends Error {
  override name = "AccountNotFoundError";

  constructor(readonly who: string) {
    super(`no account has ${who.includes("@") ? "email" : "id"} ${who}`);
  }
}

/** The change would leave the store with no active owner, and nobody could manage the team again. */
export class LastOwnerError extends Error {
  override name = "LastOwnerError";

  constructor(readonly email: string) {
    super(`${email} is the only active owner: make another owner first`);
  }
}

/** A password reset for an account that is deactivated: reactivate it first. */
export class AccountDeactivatedError extends Error {
  override name = "AccountDeactivatedError";

  constructor(readonly email: string) {
    super(`the account ${email} is deactivated: reactivate it first`);
  }
}

/** The current password, asked for before a person changes their password or email, is not theirs. */
export class WrongPasswordError extends errorSaying("WrongPasswordError", "the current password is not right") {}

/** Too many wrong current passwords (or codes): `seconds` to wait, as after failed sign-ins. */
export class TooManyAttemptsError extends Error {
  override name = "TooManyAttemptsError";

  constructor(
    readonly seconds: number,
    what = "passwords",
  ) {
    super(`too many wrong ${what}: wait ${minutes(seconds)}, then try again`);
  }
}

/** A one-time code (or recovery code) that is not right, or was already used. */
export class WrongCodeError extends errorSaying("WrongCodeError", "that code is not right, or was already used: use the next code your app shows") {}

/** The authenticator app is not in the state the change needs: already on, or not set up (any more). */
export class TotpStateError extends Error {
  override name = "TotpStateError";
}

/** The base of an error class named `name` that always says the same: `message`, thrown with no arguments. */
function errorSaying(name: string, message: string) {
  return class extends Error {
    override name = name;

    constructor() {
      super(message);
    }
  };
}

function minutes(seconds: number): string {
  const count = Math.max(1, Math.ceil(seconds / 60));
  return `${count} minute${count === 1 ? "" : "s"}`;
}

/** A new password that zxcvbn finds easy to guess (lib/auth/passwords/password-strength.ts). */
export class WeakPasswordError extends Error {
  override name = "WeakPasswordError";
}

const UNUSABLE: Record<Exclude<LinkState, "valid">, string> = {
  expired: "has expired",
  used: "has already been used",
  withdrawn: "was withdrawn, or replaced by a newer one",
  unknown: "is not known: check that it was copied whole",
};

/** A link that cannot be used (any more): its state says why, so a page can say so plainly. */
export class LinkUnusableError extends Error {
  override name = "LinkUnusableError";

  constructor(
    readonly purpose: LinkPurpose,
    readonly state: Exclude<LinkState, "valid">,
  ) {
    super(`this ${purpose === "invitation" ? "invitation" : "password reset link"} ${UNUSABLE[state]}`);
  }
}
