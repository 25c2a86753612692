import { HANG_GUARD_MS } from "./hang-guard";
// The app's log as a test reads it: one JSON object a line on stdout
// (lib/server/log.ts), other output (stderr's messages) left out. With several
// workers, a worker's lines name its place in "worker"; the primary's have none.

export type LogLine = { level: string; time: string; message: string; worker?: number } & Record<string, unknown>;

export function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    // The last piece is a line still on its way through the pipe, or nothing.
    .slice(0, -1)
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The place of the worker that logged the request with this X-Request-Id (undefined: not logged yet, or no worker's). */
export function workerOfRequest(output: string, requestId: string): number | undefined {
  return logLines(output).find((line) => line.message === "request" && line.requestId === requestId)?.worker;
}

/** In the order logged: by each line's own time (the processes of several workers share one pipe), those of one millisecond as written. */
export function inTimeOrder(lines: LogLine[]): LogLine[] {
  return lines
    .map((line, index) => ({ line, index }))
    .sort((a, b) => a.line.time.localeCompare(b.line.time) || a.index - b.index)
    .map(({ line }) => line);
}

/** The first line `match` takes, once logged; waits for it (in a hook too, where expect.poll cannot), failing after the hang guard. */
export async function waitForLine(output: () => string, match: (line: LogLine) => boolean, timeoutMs = HANG_GUARD_MS): Promise<LogLine> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = logLines(output()).find(match);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no such line logged within ${timeoutMs} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
