import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { WeakPasswordError } from "@/lib/auth/account-errors";

// Whether a new password is too easy to guess, by zxcvbn-ts with its common
// and English dictionaries (NIST SP 800-63B 3.1.1.2: refuse passwords found in
// lists of common or compromised ones, and say why). Applied to every new
// password: a created account, an accepted invitation, a reset.
//
// Server only. The dictionaries are about 1.6 MB of JavaScript, nine times a
// page's whole 180 kB script budget (eslint.config.mjs keeps them out of
// browser code). They load on the first check, not at import, so that the
// CLIs and the server start as quickly as before (issue 20). Measured on a
// busy 2-core machine: the first check takes about 0.25 s (0.3 s of CPU:
// loading and indexing the dictionaries), later ones 4 to 10 ms for a
// typical password.

// zxcvbn's scale: 0 and 1 fall to an online attack, 2 to an offline attack on
// a slow hash; 3 ("safely unguessable", about 10^8 guesses and more) is the
// usual bar, and argon2id (lib/auth/passwords/passwords.ts) makes each guess costly.
export const MIN_PASSWORD_SCORE = 3;

// zxcvbn judges only this many characters: its matching grows faster than the
// length, and one check is synchronous CPU during which the server answers
// nothing. Measured on a busy 2-core machine: random characters took 0.4 s at
// 64, 0.7 s at 100 and 2 s at 256 (PASSWORD_MAX). A password whose first 64
// characters are hard to guess is hard to guess.
const CHECKED_LENGTH = 64;

// Words of this app: a password made of them is guessed by anyone who knows where it is used.
const APP_WORDS = ["plant", "plants", "store", "plantstore", "plant store", "staff", "owner"];

const PERSONAL_WARNING = "it contains the account's name or email, or the store's name";

let loading: Promise<ZxcvbnFactory> | undefined;

function estimator(): Promise<ZxcvbnFactory> {
  loading ??= (async () => {
    const [{ ZxcvbnFactory }, common, english] = await Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...english.dictionary },
      graphs: common.adjacencyGraphs,
      maxLength: CHECKED_LENGTH,
      // zxcvbn's own words for this ("There should not be any personal or page related data") say less than they could.
      translations: { ...english.translations, warnings: { ...english.translations.warnings, userInputs: PERSONAL_WARNING } },
    });
  })();
  // A failed load is tried again on the next check rather than kept.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Who the password is for: what it must not be made of. */
export type PasswordOwner = { email: string; name?: string | undefined };

function userInputs({ email, name }: PasswordOwner): string[] {
  const local = email.split("@")[0] ?? "";
  const words = [email, local, ...splitWords(local)];
  if (name) words.push(name, ...splitWords(name));
  return [...words, ...APP_WORDS].filter((word) => word.length > 1);
}

/** The words of an email's local part or a name, one by one and run together ("ana.lopez": ana, lopez, analopez). */
function splitWords(text: string): string[] {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return [...words, words.join("")];
}

/**
 * Why this password is too easy to guess, as a message that starts with
 * "password" as the schemas' messages do; undefined when it is strong enough.
 */
export async function passwordWeakness(password: string, owner: PasswordOwner): Promise<string | undefined> {
  const result = (await estimator()).check(password, userInputs(owner));
  if (result.score >= MIN_PASSWORD_SCORE) return undefined;
  const reason = result.feedback.warning ?? result.feedback.suggestions[0] ?? "it resembles common passwords and patterns";
  return `password is too easy to guess: ${lowerFirst(reason.replace(/\.$/, ""))}`;
}

/** Throws WeakPasswordError, whose message says why, unless the password is strong enough. */
export async function requireStrongPassword(password: string, owner: PasswordOwner): Promise<void> {
  const weakness = await passwordWeakness(password, owner);
  if (weakness) throw new WeakPasswordError(weakness);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
