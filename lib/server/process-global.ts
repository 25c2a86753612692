// One value per process. The custom server (server.ts, compiled apart) and the
// app (bundled by Next, route by route) each load their own copies of this
// codebase's modules, so state they must share (the database client, the
// logger, the metrics registry, whether the process is shutting down) lives
// on globalThis under a registered symbol.
export function processGlobal<T>(name: string, create: () => T): T {
  return (holder<T>()[key(name)] ??= create());
}

/** The value, if this process has made it; never makes one. */
export function existingProcessGlobal<T>(name: string): T | undefined {
  return holder<T>()[key(name)];
}

/** Takes the value out, if this process has made it: the next processGlobal() makes a new one. */
export function takeProcessGlobal<T>(name: string): T | undefined {
  const value = holder<T>()[key(name)];
  delete holder<T>()[key(name)];
  return value;
}

/**
 * Takes every value out: the next processGlobal() of each name makes a new one. For test files that share
 * a process (test/support/fresh-modules.ts), each to start as a process of its own would.
 */
export function forgetProcessGlobals(): void {
  for (const symbol of Object.getOwnPropertySymbols(globalThis)) if (symbol.description?.startsWith(PREFIX)) delete holder()[symbol];
}

const PREFIX = "plant-store.";
const holder = <T>() => globalThis as unknown as Record<symbol, T | undefined>;
const key = (name: string) => Symbol.for(`${PREFIX}${name}`);
