import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { promisify } from "node:util";

// A file system of a test's own, for what no folder on the machine's disk can
// be made to do on demand: run out of room at a size the test picks, or refuse
// every write whoever asks (root included, whom no file mode stops). A tmpfs
// lives in memory and needs root (or CAP_SYS_ADMIN) to mount; where that is
// refused, the test says so and is skipped rather than passing untested.

const run = promisify(execFile);

export type Tmpfs = { dir: string; unmount(): Promise<void> };

/** Mounts a tmpfs of `size` (mount's syntax: 1m, 64k) at `dir`, made if missing; read-only if asked. Answers why not if the system refuses. */
export async function mountTmpfs(dir: string, options: { size: string; readOnly?: boolean }): Promise<Tmpfs | { refused: string }> {
  mkdirSync(dir, { recursive: true });
  const flags = `${options.readOnly ? "ro," : ""}size=${options.size}`;
  try {
    await run("mount", ["-t", "tmpfs", "-o", flags, "tmpfs", dir]);
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    return { refused: `mount -t tmpfs -o ${flags} tmpfs ${dir} failed: ${stderr?.trim() || (error as Error).message}` };
  }
  return { dir, unmount: () => run("umount", [dir]).then(() => {}) };
}
