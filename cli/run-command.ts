import { UsageError } from "@/cli/run-cli";
import { migrate } from "@/lib/db/migrate";
import { env } from "@/lib/server/env";

/**
 * Runs the one of `commands` that `argv` names first, with the rest of it,
 * once the database is brought up to date; a command it does not name is a
 * usage error, answered before the database is touched. `requires` checks
 * what the named command needs of the environment (a shared secret), also
 * before the database is touched.
 */
export async function runCommand(argv: string[], commands: Record<string, (args: string[]) => Promise<void>>, requires?: (command: string) => void): Promise<void> {
  const [command, ...rest] = argv;
  // Own names only: "toString" names no command.
  const run = command !== undefined && Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!run) throw new UsageError(command ? `unknown command ${command}` : "a command is required");
  requires?.(command!);
  await migrate(env().database);
  return run(rest);
}
