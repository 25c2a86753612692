import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";

// The owners' Backups page (issue 23). The SQLite lanes' apps back up into
// BACKUP_DIR (test/support/e2e-databases.ts) an hour apart, the first at
// start; here "Back up now" takes the others. A backup made to fail (its
// folder replaced by a file) is shown on every staff page to owners, and to
// no one else, until one succeeds. Run in both SQLite lanes: with one server
// process, and with two workers, whose backups the primary runs, whichever
// worker draws the page or takes "Back up now". PostgreSQL's page is
// backups-page-postgres.spec.ts.

const unique = () => randomBytes(4).toString("hex");

function navLink(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
}

const FAILED = "The last scheduled backup failed";

/** Runs `during` with the lane's backup folder replaced by a regular file, so that a backup fails; puts the folder back after, whatever happened. */
async function withBrokenBackupFolder(backupDir: string, during: () => Promise<void>): Promise<void> {
  const aside = `${backupDir}-aside-${unique()}`;
  mkdirSync(backupDir, { recursive: true });
  renameSync(backupDir, aside);
  writeFileSync(backupDir, "not a folder");
  try {
    await during();
  } finally {
    rmSync(backupDir, { force: true });
    renameSync(aside, backupDir);
  }
}

test.describe("on SQLite", () => {
  test("an owner sees the last backup and the backups in the folder, and backs up now", async ({ page, database }) => {
    await page.goto("/");
    await navLink(page, "Backups").click();
    await expect(page).toHaveTitle("Backups · Plant Store");
    await expect(page.getByRole("heading", { name: "Backups", level: 1 })).toBeVisible();
    await expect(navLink(page, "Backups")).toHaveAttribute("aria-current", "page");
    const schedule = page.getByRole("region", { name: "Schedule" });
    await expect(schedule).toContainText("Scheduled backups are on: every hour, the newest 24 kept.");
    await expect(schedule).toContainText(database.env.BACKUP_DIR!);
    // The lane's app took one at start.
    const last = page.getByRole("region", { name: "Last backup" });
    await expect(last).toContainText("ResultSucceeded, checked");
    await expect(page.getByRole("table")).toContainText(/plant-store-\d{8}T\d{6}Z\.db/);
    await expect(page.getByRole("region", { name: "Restoring a backup" })).toContainText("npm run --silent db -- restore FILE");

    await page.getByRole("button", { name: "Back up now" }).click();
    const done = page.getByRole("status").filter({ hasText: "Backed up to" });
    await expect(done).toHaveText(/^Backed up to plant-store-\d{8}T\d{6}Z\.db \(\d+\.\d kB, checked, in \d+\.\d s\)\.$/);
    const file = /plant-store-\d{8}T\d{6}Z\.db/.exec((await done.textContent())!)![0];
    await expect(last).toContainText(file);
    // Newest first, under the header row.
    await expect(page.getByRole("table").getByRole("row").nth(1)).toContainText(file);
  });

  test("a failed backup is shown to owners on every staff page, with its reason, until one succeeds; staff are not told", async ({ page, database, signedInNewAccount }) => {
    const clerk = await signedInNewAccount({ email: `cal-${unique()}@plants.example`, name: "Cal Clerk", role: "staff", password: "a long enough passphrase for backups" });
    await withBrokenBackupFolder(database.env.BACKUP_DIR!, async () => {
      await page.goto("/backups");
      await page.getByRole("button", { name: "Back up now" }).click();
      // The reason names the folder and why it cannot be one (lib/db/write-failure.ts), not Node's bare EEXIST.
      const reason = `cannot make the folder ${database.env.BACKUP_DIR!}: ${database.env.BACKUP_DIR!} is not a folder (it is a file)`;
      await expect(page.getByRole("alert").filter({ hasText: "The backup failed" })).toContainText(`The backup failed: ${reason}`);
      await expect(page.getByRole("region", { name: "Last backup" })).toContainText(`ResultFailed: ${reason}`);
      await expect(page.getByRole("heading", { name: "Last successful backup" })).toBeVisible();

      for (const path of ["/", "/plants/new", "/webhooks", "/account"]) {
        await page.goto(path);
        await expect(page.getByText(FAILED)).toBeVisible();
        await expect(page.locator(".notice").filter({ hasText: FAILED })).toContainText("The newest backup is from");
      }
      await clerk.goto("/");
      await expect(clerk.getByRole("heading", { name: "Plants" })).toBeVisible();
      await expect(clerk.getByText(FAILED)).toHaveCount(0);
    });

    await page.goto("/backups");
    await page.getByRole("button", { name: "Back up now" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Backed up to" })).toBeVisible();
    await expect(page.getByText(FAILED)).toHaveCount(0);
    await page.goto("/");
    await expect(page.getByText(FAILED)).toHaveCount(0);
  });

  test("the page passes axe at 1280 and 375 px with a failed backup shown, and nothing scrolls sideways", async ({ page, database }) => {
    await withBrokenBackupFolder(database.env.BACKUP_DIR!, async () => {
      await page.goto("/backups");
      await page.getByRole("button", { name: "Back up now" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "The backup failed" })).toBeVisible();
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await page.reload();
        await expect(page.getByText(FAILED)).toBeVisible();
        await expectNoAxeViolations(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `/backups fits at ${width} px`).toBe(true);
      }
    });
    // And mended, so that the lane's other specs meet no notice.
    await page.getByRole("button", { name: "Back up now" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Backed up to" })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "/backups fits at 375 px").toBe(true);
  });
});

test("staff who are not owners have no Backups page: no link, and a 404", async ({ signedInNewAccount }) => {
  const clerk = await signedInNewAccount({ email: `sam-${unique()}@plants.example`, name: "Sam Staff", role: "staff", password: "a long enough passphrase for backups" });
  await expect(navLink(clerk, "Backups")).toHaveCount(0);
  expect((await clerk.request.get("/backups")).status()).toBe(404);
  await clerk.goto("/backups");
  await expect(clerk.getByRole("heading", { name: "Backups" })).toHaveCount(0);
});

