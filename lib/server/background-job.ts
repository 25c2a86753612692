// A job a server process runs in the background, on a timer (the activity
// record's and the change feed's retention): a while after start, so that
// start-up is not slowed by it, then at an interval, one run at a time.

export type BackgroundJob = {
  /** Ends the run under way (through its signal) and runs no more; settles once that run has. */
  stop(): Promise<void>;
};

export function startBackgroundJob({ firstRunMs, intervalMs, run }: { firstRunMs: number; intervalMs: number; run(signal: AbortSignal): Promise<void> }): BackgroundJob {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  const runOnce = () => {
    if (running || stopping.signal.aborted) return;
    running = run(stopping.signal).finally(() => (running = undefined));
  };
  // Neither keeps the process alive by itself.
  const first = setTimeout(runOnce, firstRunMs).unref();
  const every = setInterval(runOnce, intervalMs).unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      stopping.abort();
      await running;
    },
  };
}
