// npm run --silent user -- <create|list|invite|role|deactivate|reactivate|reset-password|reset-factors>
// The operator's account CLI (issue 21: the store's team). Works against the
// configured database whether or not the app is running, under the same rules
// as the owners' team page: the last active owner is never demoted nor
// deactivated, and every new password passes the strength rule.
//
// A password is read from the terminal without echo, or from stdin when it is
// not a terminal; never from a flag, where it would land in shell history and
// in every `ps` listing. invite and reset-password print only the link on
// stdout, so that `$(...)` captures it, and what they did on stderr; the link
// is shown this once and never logged. Every change is in the activity record
// as the CLI's, named by the operator's OS user (cliAttribution).
import type { z } from "zod";
import { parseCommandLine } from "@/cli/parse-command-line";
import { runCli, UsageError } from "@/cli/run-cli";
import { runCommand } from "@/cli/run-command";
import { writeList } from "@/cli/write-table";
import { cliAttribution } from "@/lib/activity/cli-attribution";
import { accountLinkUrl } from "@/lib/auth/accounts/account-link-url";
import { mailInvitation, mailPasswordReset } from "@/lib/auth/accounts/account-mail";
import { AccountNotFoundError } from "@/lib/auth/account-errors";
import { createInvitation, createPasswordReset } from "@/lib/auth/accounts/account-links";
import { clearSecondFactors } from "@/lib/auth/second-factors/second-factor-recovery";
import { changeRole, deactivateUser, listTeam, reactivateUser, type Team } from "@/lib/auth/accounts/team";
import { createUser, findUserIdByEmail } from "@/lib/auth/accounts/users";
import type { MailOutcome } from "@/lib/mail/mailer";
import { emailSchema, newInvitationSchema, newUserSchema, roleSchema } from "@/lib/validations/user";

const USAGE = `usage:
  user create --email <email> --role owner|staff [--name <name>]
      asks for the password twice (no echo); or pipe it on stdin:
      printf '%s\\n' "$PASSWORD" | npm run --silent user -- create --email ana@example.com --role staff
  user list [--json]
      every account (role, status, last sign-in, live API tokens) and the pending invitations
  user invite --email <email> --role owner|staff
      prints only the invitation link (valid 7 days, once) on stdout; a new one replaces the pending one
  user role <email> owner|staff
  user deactivate <email>
      it can no longer sign in, its sessions end, its API tokens are refused until reactivated
  user reactivate <email>
  user reset-password <email>
      prints only a password reset link (valid 24 hours, once) on stdout; using it ends the account's sessions
  user reset-factors <email>
      clears its second factors (authenticator app, recovery codes, passkeys) and ends its sessions:
      it signs in with its password alone, for an owner who lost every factor
  The link's address is NEXTAUTH_URL, or http://localhost:$PORT.`;

const COMMANDS = { create, list, invite, role, deactivate, reactivate, "reset-password": resetPassword, "reset-factors": resetFactors };

/** A schema's complaint about a command-line value, as a usage error. */
function parseValue<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => issue.message).join("; "));
  return parsed.data;
}

async function create(args: string[]): Promise<void> {
  if (args.some((arg) => arg === "--password" || arg.startsWith("--password="))) {
    throw new UsageError("there is no --password flag: a flag would show the password in shell history and ps");
  }
  const { values } = parseCommandLine(args, { email: { type: "string" }, name: { type: "string" }, role: { type: "string" } });
  if (!values.email) throw new UsageError("--email is required");
  if (!values.role) throw new UsageError("--role owner|staff is required");
  const name = values.name ?? values.email.split("@")[0] ?? values.email;
  // Checked before asking for a password, so a typo costs no typing.
  const partial = parseValue(newUserSchema.omit({ password: true }), { email: values.email, name, role: values.role });
  const password = process.stdin.isTTY ? await promptNewPassword() : await readStdinPassword();
  const parsed = newUserSchema.safeParse({ ...partial, password });
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join("; "));
  const user = await createUser(parsed.data, cliAttribution());
  process.stderr.write(`created ${user.role} ${user.email} (${user.id})\n`);
}

async function list(args: string[]): Promise<void> {
  const { values } = parseCommandLine(args, { json: { type: "boolean", default: false } });
  const team = await listTeam();
  writeList({ asJson: values.json, json: team, table: teamRows(team), none: "no accounts and no pending invitations" });
}

function teamRows({ members, invitations }: Team): string[][] {
  return [
    ["EMAIL", "NAME", "ROLE", "STATUS", "LAST SIGN-IN", "TOKENS", "INVITATION EXPIRES"],
    ...members.map((member) => [member.email, member.name, member.role, member.status, member.lastSignInAt?.toISOString() ?? "never", String(member.liveTokens), "-"]),
    ...invitations.map((invitation) => [invitation.email, "-", invitation.role, invitation.status, "-", "-", invitation.expiresAt.toISOString()]),
  ];
}

async function invite(args: string[]): Promise<void> {
  const { values } = parseCommandLine(args, { email: { type: "string" }, role: { type: "string" } });
  if (!values.email) throw new UsageError("--email is required");
  if (!values.role) throw new UsageError("--role owner|staff is required");
  const { secret, link } = await createInvitation(parseValue(newInvitationSchema, values), cliAttribution());
  const url = accountLinkUrl("invitation", secret);
  process.stdout.write(`${url}\n`);
  process.stderr.write(`invited ${link.email} as ${link.role}: ${mailed(await mailInvitation(link, url, null), link.email)}; it works once, until ${link.expiresAt.toISOString()}\n`);
}

/** The command's positional arguments: exactly `count`, or the usage error `expected`. */
function positionals(args: string[], count: number, expected: string): string[] {
  const { positionals: given } = parseCommandLine(args, {}, true);
  if (given.length !== count) throw new UsageError(expected);
  return given;
}

/** The id of the account with this email, active or not. */
async function accountId(given: string | undefined): Promise<string> {
  const email = parseValue(emailSchema, given);
  const userId = await findUserIdByEmail(email);
  if (!userId) throw new AccountNotFoundError(email);
  return userId;
}

async function role(args: string[]): Promise<void> {
  const [email, newRole] = positionals(args, 2, "role takes the account's email and owner or staff");
  const parsedRole = parseValue(roleSchema, newRole);
  const user = await changeRole(await accountId(email), parsedRole, cliAttribution());
  process.stderr.write(`${user.email} is ${user.role}\n`);
}

async function deactivate(args: string[]): Promise<void> {
  const [email] = positionals(args, 1, "deactivate takes the account's email");
  const user = await deactivateUser(await accountId(email), cliAttribution());
  process.stderr.write(`deactivated ${user.email}: it cannot sign in, its sessions have ended, its API tokens are refused until it is reactivated\n`);
}

async function reactivate(args: string[]): Promise<void> {
  const [email] = positionals(args, 1, "reactivate takes the account's email");
  const user = await reactivateUser(await accountId(email), cliAttribution());
  process.stderr.write(`reactivated ${user.email}: it can sign in again, and its live API tokens work again\n`);
}

async function resetPassword(args: string[]): Promise<void> {
  const [email] = positionals(args, 1, "reset-password takes the account's email");
  const { secret, link } = await createPasswordReset({ userId: await accountId(email) }, cliAttribution());
  const url = accountLinkUrl("password_reset", secret);
  process.stdout.write(`${url}\n`);
  process.stderr.write(
    `password reset link for ${link.email}: ${mailed(await mailPasswordReset(link, url), link.email)}; it works once, until ${link.expiresAt.toISOString()}, and ends the account's sessions when used\n`,
  );
}

async function resetFactors(args: string[]): Promise<void> {
  const [email] = positionals(args, 1, "reset-factors takes the account's email");
  const { user, cleared } = await clearSecondFactors(await accountId(email), cliAttribution());
  if (!cleared) {
    process.stderr.write(`${user.email} has no second factor: nothing cleared, its sessions go on\n`);
    return;
  }
  const what = [...(cleared.authenticatorApp ? ["its authenticator app and recovery codes"] : []), ...(cleared.passkeys.length ? [`${cleared.passkeys.length} passkey(s)`] : [])].join(" and ");
  process.stderr.write(`cleared ${what} of ${user.email}, and ended its sessions: it signs in with its password alone\n`);
}

/** What became of a link's email, for the operator: with a mail server configured, the link is also emailed. */
function mailed(outcome: MailOutcome | null, email: string): string {
  if (outcome === null) return "send them the link";
  return outcome.sent ? `emailed to ${email} too` : `the email could not be sent (${outcome.reason}): send them the link yourself`;
}

async function promptNewPassword(): Promise<string> {
  const first = await promptHidden("Password: ");
  const second = await promptHidden("Repeat password: ");
  if (first !== second) throw new Error("the passwords differ");
  return first;
}

/** Reads a line from the terminal in raw mode, echoing nothing. */
function promptHidden(question: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(question);
  input.setRawMode(true);
  input.resume();
  input.setEncoding("utf8");
  let typed = "";
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off("data", onData);
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === "\r" || character === "\n") return finish();
        if (character === "\u0003" || character === "\u0004") return finish(new Error("cancelled"));
        if (character === "\u007f" || character === "\b") typed = [...typed].slice(0, -1).join("");
        else typed += character;
      }
    };
    input.on("data", onData);
  });
}

/** The first line of stdin, without its line ending. */
async function readStdinPassword(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text.split(/\r?\n/)[0] ?? "";
}

runCli("user", USAGE, () => runCommand(process.argv.slice(2), COMMANDS));
