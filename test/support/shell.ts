import { execFile } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/**
 * Runs a command line as an operator's shell would (one a CLI printed for
 * them, say), answering its output. The PostgreSQL commands need pg_dump,
 * pg_restore and createdb on PATH (Debian: postgresql-client), of the
 * server's version or newer.
 */
export async function shell(command: string, cwd: string): Promise<string> {
  try {
    return (await execFileAsync("sh", ["-c", command], { cwd })).stdout;
  } catch (error) {
    throw new Error(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
