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

const holder = <T>() => globalThis as unknown as Record<symbol, T | undefined>;
const key = (name: string) => Symbol.for(`plant-store.${name}`);
