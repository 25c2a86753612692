import { processGlobal } from "@/lib/server/process-global";

// The signals that stop the server, each the same clean stop
// (lib/server/shutdown.ts, and passed to every worker by
// lib/server/cluster-primary.ts): SIGTERM from a supervisor (docker stop,
// systemd, Kubernetes), SIGINT from Ctrl-C, SIGHUP from a terminal that closes
// (the kernel sends it to every process of the terminal's session) and from
// supervisors that stop with it. Node's default for each is to die at once,
// cutting every request in flight. The server has nothing to reload, the other
// meaning daemons give SIGHUP: its configuration is read once, at start.
//
// A signal can come while the server starts, which takes a second or more
// (Next.js loads; a worker beside others, and on a busy machine, longer). From
// the process's first line (server.ts) each is caught, and a stop that was
// asked for ends in exit 0 whenever it comes:
// - before the server has started anything a stop must wait for (while it
//   checks its configuration, migrates, loads Next.js), the process exits at
//   once: the migrations are one transaction, which a cut rolls back, and
//   waiting for them could mean waiting on another instance's lock;
// - from then on (the webhook worker and the other jobs start, the port
//   opens), it is kept, and the server drains as soon as it can, a moment later.

export const STOP_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

type StopSignals = { held: boolean; received?: StopSignal; listeners: ((signal: StopSignal) => void)[] };

function stopSignals(): StopSignals {
  return processGlobal("stopSignals", () => {
    const state: StopSignals = { held: false, listeners: [] };
    for (const signal of STOP_SIGNALS) {
      process.on(signal, () => {
        if (!state.held) process.exit(0);
        state.received ??= signal;
        for (const listener of state.listeners) listener(signal);
      });
    }
    return state;
  });
}

/** Called first thing: from here on a stop signal ends the process at once, with 0, rather than killing it. */
export function catchStopSignals(): void {
  stopSignals();
}

/** From here the process has started what a stop must wait for: a stop signal is kept for onStopSignal. */
export function holdStopSignals(): void {
  stopSignals().held = true;
}

/** Calls back on every stop signal from now on, and at once for one kept before; holds them from here. */
export function onStopSignal(listener: (signal: StopSignal) => void): void {
  const state = stopSignals();
  state.held = true;
  state.listeners.push(listener);
  if (state.received) listener(state.received);
}

export function isStopSignal(signal: string | null): signal is StopSignal {
  return (STOP_SIGNALS as readonly (string | null)[]).includes(signal);
}
