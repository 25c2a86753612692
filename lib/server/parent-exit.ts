// The process that started the server (npm, a supervisor, a test) passes
// SIGTERM and SIGINT on, but one killed outright (SIGKILL, the OOM killer)
// passes nothing: the server would run on orphaned, holding its port against
// the instance started in its place (issue 20). Linux tells a process that
// its parent died only through prctl(PR_SET_PDEATHSIG), which Node does not
// offer; an orphan is reparented (to init or the nearest subreaper), so its
// parent's pid changes, and that is what this watches.

const CHECK_INTERVAL_MS = 1_000;

/** Calls back once, when the process that started this one has exited. */
export function onParentExit(callback: () => void): void {
  const parent = process.ppid;
  // Started by init, or the first process of a container (parent 0): there is no parent to outlive.
  if (parent <= 1) return;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    callback();
  }, CHECK_INTERVAL_MS);
  // Never what keeps the process alive.
  timer.unref();
}
