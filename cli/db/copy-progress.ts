import type { CopyProgress, TableReport } from "@/lib/db/copy/copy-database";

// The copy's progress on a terminal (issue 23): one line per table, rewritten
// as its rows go by, then kept with how many and how long. Only on a
// terminal: a script or a log gets the summary alone, not a hundred redrawn
// lines. Written to stderr, so stdout stays the summary.

const REDRAW_EVERY_MS = 100;

export function terminalProgress(stream: NodeJS.WriteStream): CopyProgress {
  if (!stream.isTTY) return {};
  let table = "";
  let phase = "";
  let tableStart = 0;
  let drawnAt = 0;
  const draw = (text: string, keep: boolean) => stream.write(`\r\x1b[K${text}${keep ? "\n" : ""}`);
  const step = (verb: string, name: string, done: number, total: number) => {
    const now = performance.now();
    if (name !== table || verb !== phase) {
      [table, phase, tableStart, drawnAt] = [name, verb, now, 0];
    }
    if (done >= total) {
      draw(`${verb === "copying" ? "copied" : "read back"} ${name}: ${count(done)} rows in ${seconds(now - tableStart)}`, verb === "copying");
      return;
    }
    if (now - drawnAt < REDRAW_EVERY_MS) return;
    drawnAt = now;
    const share = total === 0 ? 100 : Math.floor((done / total) * 100);
    draw(`${verb} ${name}: ${count(done)} of ${count(total)} rows (${share} %)`, false);
  };
  return {
    copying: (name, done, total) => step("copying", name, done, total),
    verifying: (name, done, total) => step("verifying", name, done, total),
    verified: (report: TableReport) => draw(`verified ${report.table}: ${count(report.targetRows)} rows, checksum ${report.matches ? "matches" : "DIFFERS"}`, true),
    committing: () => draw("committing", false),
  };
}

export function count(rows: number): string {
  return rows.toLocaleString("en-US");
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
