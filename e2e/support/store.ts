import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { appEnv } from "../../test/support/app-env";
import type { TestDatabase } from "../../test/support/test-database";

// What the specs start from, made in the lane's database by one helper process
// (e2e/support/store-process.ts) rather than by an operator CLI process each.
// Relative imports: Playwright loads this file as CommonJS.

export type StoreRequest =
  | { op: "user"; user: { email: string; name: string; role: "owner" | "staff"; password: string } }
  | { op: "token"; label: string; scopes: string[]; lifetimeSeconds: number }
  | { op: "invitation"; email: string; role: "owner" | "staff" }
  | { op: "password reset"; email: string }
  | { op: "webhook"; endpoint: { url: string; events: string[]; description?: string } }
  | { op: "delete webhook"; id: string };

export type Store = {
  /** Makes an account, as `user create` does (a weak password or a taken email fails); answers its id. */
  createUser(user: { email: string; name: string; role: "owner" | "staff"; password: string }): Promise<string>;
  /** An API token, as `token create` makes one: 30 days unless told. */
  createToken(label: string, scopes: string[], lifetimeSeconds?: number): Promise<string>;
  /** The path of an invitation's page, as `user invite` makes one. */
  invitationPath(email: string, role: "owner" | "staff"): Promise<string>;
  /** The path of a password reset link's page, as `user reset-password` makes one. */
  passwordResetPath(email: string): Promise<string>;
  /** A webhook endpoint, as `webhook create` makes one (private targets allowed, as the lanes' apps allow them); answers its id. */
  createWebhook(endpoint: { url: string; events: string[]; description?: string }): Promise<string>;
  deleteWebhook(id: string): Promise<void>;
  stop(): Promise<void>;
};

export function startStore(database: Pick<TestDatabase, "env">): Store {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "e2e/support/store-process.ts"], {
    cwd: process.cwd(),
    // The specs' webhook endpoints are on 127.0.0.1, as playwright.config.ts allows the lanes' apps.
    env: appEnv(database, { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }),
    stdio: ["pipe", "pipe", "inherit"],
  });
  const waiting = new Map<number, { resolve: (value: string) => void; reject: (error: Error) => void }>();
  let next = 0;
  let exited: string | undefined;
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const { id, value, error } = JSON.parse(line) as { id: number; value?: string; error?: string };
    const call = waiting.get(id);
    waiting.delete(id);
    if (error === undefined) call?.resolve(value!);
    else call?.reject(new Error(`the store helper: ${error}`));
  });
  const ended = new Promise<void>((resolve) =>
    child.once("close", (code, signal) => {
      exited = `the store helper exited (${signal ?? code})`;
      for (const call of waiting.values()) call.reject(new Error(exited));
      waiting.clear();
      resolve();
    }),
  );
  const call = (request: StoreRequest) =>
    new Promise<string>((resolve, reject) => {
      if (exited) return reject(new Error(exited));
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.stdin!.write(`${JSON.stringify({ id, request })}\n`);
    });
  return {
    createUser: (user) => call({ op: "user", user }),
    createToken: (label, scopes, lifetimeSeconds = 30 * 86_400) => call({ op: "token", label, scopes, lifetimeSeconds }),
    invitationPath: (email, role) => call({ op: "invitation", email, role }),
    passwordResetPath: (email) => call({ op: "password reset", email }),
    createWebhook: (endpoint) => call({ op: "webhook", endpoint }),
    deleteWebhook: async (id) => void (await call({ op: "delete webhook", id })),
    stop: async () => {
      child.stdin!.end();
      await ended;
    },
  };
}
