import { closeSync, fsyncSync, openSync } from "node:fs";

/** fsync of a file, or of a folder: a rename is durable once its folder is flushed. */
export function flushToDisk(target: string): void {
  const descriptor = openSync(target, "r");
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
