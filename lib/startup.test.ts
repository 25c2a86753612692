import { expect, it } from "vitest";
import { startApp } from "@/lib/testing/app-server";

// Configuration is validated once at start-up: a bad value stops the server
// with a message naming the variable, before it serves anything.

it.each([
  [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
  [{ NEXTAUTH_SECRET: "too short" }, "NEXTAUTH_SECRET: must be at least 32 characters"],
  [{ DATABASE_URL: "postgres://localhost/plants" }, "DATABASE_URL: must be a SQLite file URL"],
])("the server refuses to start with %o", async (env, message) => {
  const failure = startApp({ env });
  await expect(failure).rejects.toThrow(/the app exited with 1/);
  await expect(failure).rejects.toThrow(`plant-store: Invalid configuration (see .env.example):\n  ${message}`);
});
