import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

// A child process's output read a line at a time, as a test talks to a helper
// process it started (one that holds a SQLite file open, or writes plants):
// nextLine() answers the next line written, waiting for it if need be.

export type LineReader = {
  nextLine(): Promise<string>;
  /** Answers every nextLine() still waiting with `text` (the child has gone, say). */
  answerWaiting(text: string): void;
};

export function lineReader(stream: Readable): LineReader {
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: stream }).on("line", (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  return {
    nextLine: () => new Promise<string>((resolve) => (lines.length > 0 ? resolve(lines.shift()!) : waiting.push(resolve))),
    answerWaiting: (text) => {
      for (const next of waiting.splice(0)) next(text);
    },
  };
}
