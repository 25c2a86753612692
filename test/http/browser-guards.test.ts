import { afterAll, beforeAll, describe } from "vitest";
import { startApp } from "@/test/support/app-server";
import type { GuardedApps } from "./browser-guards/guarded-apps";
import { describeHardenedAnswers } from "./browser-guards/hardened-answers";
import { describeServerActionOrigin } from "./browser-guards/server-action-origin";

// What the app does against other sites' pages in a browser: hardened
// answers (security headers, CSP, HSTS, cookies, CORS) and server actions
// refused from another origin. Both read the apps' logs or need settings of
// their own, so not on the app the HTTP files share; but they share the two
// apps they need, one on plain http and one behind an https NEXTAUTH_URL,
// rather than start two each (issue 31).

let apps: Partial<GuardedApps> = {};

beforeAll(async () => {
  // Side by side; one that started is kept for afterAll to stop even when the other did not.
  const [app, secure] = await Promise.allSettled([startApp({ env: { CORS_ORIGINS: "https://shop.example" } }), startApp({ env: { NEXTAUTH_URL: "https://plants.example" } })]);
  apps = { app: app.status === "fulfilled" ? app.value : undefined, secure: secure.status === "fulfilled" ? secure.value : undefined };
  for (const each of [app, secure]) if (each.status === "rejected") throw each.reason;
});

afterAll(async () => {
  await Promise.all([apps.app?.stop(), apps.secure?.stop()]);
});

const guardedApps = (): GuardedApps => ({ app: apps.app!, secure: apps.secure! });

describe("server action origin", () => describeServerActionOrigin(guardedApps));
describe("hardened answers", () => describeHardenedAnswers(guardedApps));
