import { execFileSync } from "node:child_process";

// A connection as the kernel holds it on the server's side, seen from outside
// the app with `ss` (issue 44): whether the app still holds a client's
// connection, or left it to the kernel (FIN-WAIT-1 with bytes unsent), or
// let it go.

export type ServerSide = { state: string; sendQueue: number };

/** The sockets on this machine from `serverPort` to a client's `clientPort`: each one's state and the bytes it has not sent; none once it has gone. */
export function serverSideOf(serverPort: number, clientPort: number): ServerSide[] {
  const table = execFileSync("ss", ["-Htn", "state", "all", `( sport = :${serverPort} and dport = :${clientPort} )`], { encoding: "utf8" });
  return table
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [state, , sendQueue] = line.trim().split(/\s+/);
      return { state: state!, sendQueue: Number(sendQueue) };
    });
}
