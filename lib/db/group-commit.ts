/**
 * A queue that writes together what arrives together. Each call adds its input;
 * the inputs gathered in one turn of the event loop go to `write` as one batch
 * (at most `maxBatch`), so they share one statement, one commit and one fsync.
 * Every caller still hears back only when `write` has settled its own input.
 *
 * `write` answers one outcome per input, in order; if it throws, every input
 * of the batch fails with that error.
 *
 * Batches are written side by side, unless `oneAtATime()` says otherwise when
 * one starts: then the calls made while it is written wait for it, and go
 * together as the next batch. That is for a database that writes one
 * transaction at a time anyway (SQLite): batches written side by side would
 * only queue for its lock, each committing apart.
 */
export function groupCommit<Input, Output>(
  write: (inputs: Input[]) => Promise<PromiseSettledResult<Output>[]>,
  maxBatch: number,
  { oneAtATime = () => false }: { oneAtATime?: () => boolean } = {},
): (input: Input) => Promise<Output> {
  type Waiting = { input: Input; resolve: (output: Output) => void; reject: (error: unknown) => void };
  const waiting: Waiting[] = [];
  let writing = false;

  async function flush(): Promise<void> {
    const batch = waiting.splice(0, maxBatch);
    writing = oneAtATime();
    if (!writing && waiting.length > 0) setImmediate(flush);
    try {
      const outcomes = await write(batch.map((each) => each.input));
      batch.forEach((each, index) => {
        const outcome = outcomes[index];
        if (outcome?.status === "fulfilled") each.resolve(outcome.value);
        else each.reject(outcome ? outcome.reason : new Error("the batch write answered no outcome for this input"));
      });
    } catch (error) {
      for (const each of batch) each.reject(error);
    } finally {
      if (writing) {
        writing = false;
        if (waiting.length > 0) setImmediate(flush);
      }
    }
  }

  return (input) =>
    new Promise((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      if (waiting.length === 1 && !writing) setImmediate(flush);
    });
}
