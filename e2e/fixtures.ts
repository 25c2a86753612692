import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// Shared by the specs: the owner made by the setup project, and the checks
// every page gets. playwright.config.ts sets E2E_DATA_DIR for every worker.

export const DATA_DIR = process.env.E2E_DATA_DIR!;
export const OWNER_STATE = path.join(DATA_DIR, "owner-storage-state.json");
export const OWNER = { email: "owner@plants.example", name: "Olive Owner", password: "correct horse battery staple" };

/** For specs that start signed out. */
export const SIGNED_OUT = { cookies: [], origins: [] };

/** WCAG 2.2 A and AA and best practice, as axe checks them: zero violations. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(" ")),
  }));
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "..");

/** Creates an account with the operator's CLI against the app's database, password on stdin. */
export async function createUserWithCli(user: { email: string; name: string; role: "owner" | "staff"; password: string }): Promise<void> {
  const child = run(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "lib/cli/user.ts", "create", "--email", user.email, "--name", user.name, "--role", user.role], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR, DATABASE_URL: "", NEXTAUTH_SECRET: "" },
  });
  child.child.stdin?.end(`${user.password}\n`);
  await child;
}
