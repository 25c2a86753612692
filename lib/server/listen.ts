import type { Server } from "node:http";
import { EnvError } from "@/lib/server/env";

// Opening a listener. What stops one is nearly always the configuration: a
// second instance on the machine with the first one's port (issue 20: the
// metrics port, 9464 unless set, is one per instance like PORT), a privileged
// port, an address the machine does not have. Node's message names the
// address; this one names the variable to change.

/** The variables that place the listener; off: whether the port may be set to off (the listener is optional). */
export type ListenerVariables = { port: string; host: string; off?: boolean };

export function listen(server: Server, { port, host }: { port: number; host: string }, variables: ListenerVariables): Promise<void> {
  return new Promise((resolve, reject) => {
    const refused = (error: Error) => reject(listenError(error, `${host}:${port}`, variables));
    server.once("error", refused);
    server.listen(port, host, () => {
      server.off("error", refused);
      resolve();
    });
  });
}

function listenError(error: Error, address: string, { port, host, off = false }: ListenerVariables): Error {
  const orOff = off ? `, or set ${port}=off` : "";
  const code = "code" in error ? error.code : undefined;
  switch (code) {
    case "EADDRINUSE":
      return new EnvError(`${port}: ${address} is in use, by another program or another instance of this app; give each instance on a machine its own ${port}${orOff}`);
    case "EACCES":
      return new EnvError(`${port}: not allowed to listen on ${address} (ports below 1024 need privileges); choose a port from 1024 up${orOff}`);
    case "EADDRNOTAVAIL":
      return new EnvError(`${host}: ${address} is not an address of this machine`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new EnvError(`${host}: the name in ${address} does not resolve to an address`);
    default:
      return error;
  }
}
