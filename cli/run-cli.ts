import { logToStderr } from "@/lib/server/log";

// How the operator CLIs end: exit 0 on success; on a mistake in the command
// line, exit 2 with the message and the usage; on any other failure, exit 1
// with the message only (never a stack: operators read this, not developers).

/** A mistake in the command line: answered with the usage text and exit code 2. */
export class UsageError extends Error {}

export function runCli(name: string, usage: string, main: () => Promise<void>): void {
  // What the app's code logs on the way (an email that could not be sent, say) joins the CLI's own messages.
  logToStderr();
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`${name}: ${message}\n${error instanceof UsageError ? `${usage}\n` : ""}`);
      process.exit(error instanceof UsageError ? 2 : 1);
    },
  );
}
