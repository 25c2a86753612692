// The messages of a process's JSON log lines in the order they happened: by
// their own time, which is taken when each is logged. The order lines reach a
// pipe in has been seen to differ by a line at exit (a worker's "shut down"
// before its "webhook worker stopped", 2 ms apart), which is not what an
// operator's log store sorts by.

export function messagesInTimeOrder(output: string): string[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { time: string; message: string })
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => a.time.localeCompare(b.time) || a.index - b.index)
    .map((entry) => entry.message);
}

/** Whether `expected` occur in this order among the messages (others may come between). */
export function inOrder(messages: readonly string[], expected: readonly string[]): boolean {
  let at = 0;
  for (const message of messages) if (message === expected[at]) at++;
  return at === expected.length;
}
