// npm run --silent user -- create --email <email> --role owner|staff [--name <name>]
// The operator's account CLI. The password is read from the terminal without
// echo, or from stdin when it is not a terminal; never from a flag, where it
// would land in shell history and in every `ps` listing.
import { parseArgs } from "node:util";
import { runCli, UsageError } from "@/cli/run-cli";
import { env } from "@/lib/server/env";
import { migrate } from "@/lib/db/migrate";
import { createUser } from "@/lib/auth/users";
import { newUserSchema } from "@/lib/validations/user";

const USAGE = `usage:
  user create --email <email> --role owner|staff [--name <name>]
      asks for the password twice (no echo); or pipe it on stdin:
      printf '%s\\n' "$PASSWORD" | npm run --silent user -- create --email ana@example.com --role staff`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  await migrate(env().database);
  if (command !== "create") throw new UsageError(command ? `unknown command ${command}` : "a command is required");
  const values = parseOptions(rest);
  if (!values.email) throw new UsageError("--email is required");
  if (!values.role) throw new UsageError("--role owner|staff is required");
  const name = values.name ?? values.email.split("@")[0] ?? values.email;
  // Checked before asking for a password, so a typo costs no typing.
  const partial = newUserSchema.omit({ password: true }).safeParse({ email: values.email, name, role: values.role });
  if (!partial.success) throw new UsageError(partial.error.issues.map((issue) => issue.message).join("; "));
  const password = process.stdin.isTTY ? await promptNewPassword() : await readStdinPassword();
  const parsed = newUserSchema.safeParse({ ...partial.data, password });
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join("; "));
  const user = await createUser(parsed.data);
  process.stderr.write(`created ${user.role} ${user.email} (${user.id})\n`);
}

function parseOptions(args: string[]) {
  if (args.some((arg) => arg === "--password" || arg.startsWith("--password="))) {
    throw new UsageError("there is no --password flag: a flag would show the password in shell history and ps");
  }
  try {
    return parseArgs({ args, options: { email: { type: "string" }, name: { type: "string" }, role: { type: "string" } } }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
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

runCli("user", USAGE, () => main(process.argv.slice(2)));
