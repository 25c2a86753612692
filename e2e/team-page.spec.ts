import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, OWNER, SIGNED_OUT, signIn, test } from "./fixtures";

// The store's team in the browser (issue 21): owners invite people and see
// each link once, change roles, deactivate and reactivate accounts, make
// password reset links, and withdraw or renew invitations; the store keeps an
// active owner whatever they click. The specs of a lane share one database:
// every email here is new, and OWNER is left the only active owner, as the
// other specs expect.

const PASSWORD = "a long enough passphrase for the team";

/** A fresh suffix, so that no email or name meets one from another test or run. */
const unique = () => randomBytes(4).toString("hex");

/** The link an app without NEXTAUTH_URL makes: at the address the owner's page is on (lib/auth/accounts/account-link-url.ts). */
function linkPattern(baseURL: string, path: "/join" | "/reset-password"): RegExp {
  return new RegExp(`^${baseURL.replace(/[.]/g, "\\.")}${path}/[A-Za-z0-9_-]{43}$`);
}

function navLink(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
}

function row(page: Page, text: string) {
  return page.getByRole("row").filter({ hasText: text });
}

/** Invites `email` through the form; answers the link shown once. */
async function invite(page: Page, email: string, role: "owner" | "staff" = "staff"): Promise<string> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Role").selectOption(role);
  await page.getByRole("button", { name: "Invite" }).click();
  const link = page.getByLabel(`Invitation link for ${email}`);
  await expect(link).toBeVisible();
  return link.inputValue();
}

test("an owner finds the team in the menu, invites someone and sees the link once, gives a new link, and withdraws it", async ({ page, baseURL }) => {
  const email = `ivy-${unique()}@plants.example`;
  await page.goto("/");
  await navLink(page, "Team").click();
  await expect(page).toHaveTitle("Team · Plant Store");
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  await expect(navLink(page, "Team")).toHaveAttribute("aria-current", "page");

  const self = row(page, `${OWNER.name} (you)`);
  await expect(self).toContainText(OWNER.email);
  await expect(self.getByRole("cell").nth(1)).toHaveText(/owner$/);
  await expect(self.getByRole("cell").nth(2)).toHaveText(/active$/);

  const link = await invite(page, email);
  expect(link).toMatch(linkPattern(baseURL!, "/join"));
  // Focus is on the link, selected, ready to copy (SecretOnce).
  await expect(page.getByLabel(`Invitation link for ${email}`)).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "shown only this once" })).toContainText(`Send this link to ${email}; it works once, for 7 days.`);
  await expect(page.getByLabel("Email")).toHaveValue("");
  const invited = row(page, email);
  await expect(invited).toContainText("staff");
  await expect(invited).toContainText("invited");

  await page.reload();
  await expect(page.getByLabel(`Invitation link for ${email}`)).toHaveCount(0); // shown once only
  await expect(page.getByText(link)).toHaveCount(0);

  // The new link is a new invitation: its row replaces the old one (rows are keyed by invitation).
  const oldRow = await row(page, email).elementHandle();
  await page.getByRole("button", { name: `New link for ${email}` }).click();
  const renewed = page.getByLabel(`Invitation link for ${email}`);
  await expect(renewed).toBeFocused();
  expect(await renewed.inputValue()).toMatch(linkPattern(baseURL!, "/join"));
  expect(await renewed.inputValue()).not.toBe(link);
  // The action answers before the page's new list is drawn: withdraw from the new row, not the old one.
  await expect.poll(() => oldRow!.evaluate((element) => element.isConnected)).toBe(false);
  await expect(row(page, email)).toHaveCount(1);

  await page.getByRole("button", { name: `Withdraw the invitation for ${email}` }).click();
  await expect(row(page, email)).toHaveCount(0);
  const withdrawn = page.getByText(`Withdrew the invitation for ${email}: its link no longer works.`);
  await expect(withdrawn).toBeFocused();
});

test("the invitation form explains what is wrong, and refuses an email an account has", async ({ page }) => {
  await page.goto("/team");
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.locator("#invite-email-error")).toHaveText("Email is required.");
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Email")).toBeFocused();

  await page.getByLabel("Email").fill(OWNER.email.toUpperCase());
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.locator("#invite-email-error")).toHaveText(`An account with email ${OWNER.email} already exists.`);
  await expect(page.getByLabel("Email")).toBeFocused();
  await expect(page.getByRole("textbox", { name: /Invitation link/ })).toHaveCount(0);
});

test("an owner makes a staff account an owner and staff again, makes it a reset link, and deactivates and reactivates it", async ({ page, baseURL, createAccount }) => {
  const id = unique();
  const ivy = { email: `ivy.clerk-${id}@plants.example`, name: `Ivy Clerk ${id}`, role: "staff" as const, password: PASSWORD };
  await createAccount(ivy);
  await page.goto("/team");
  const ivyRow = row(page, ivy.email);
  await expect(ivyRow.getByRole("cell").nth(1)).toHaveText(/staff$/);
  await expect(ivyRow.getByRole("cell").nth(3)).toHaveText(/never$/);

  await page.getByRole("button", { name: `Make owner ${ivy.name}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `${ivy.name} is now an owner.` })).toBeVisible();
  await expect(ivyRow.getByRole("cell").nth(1)).toHaveText(/owner$/);
  // The same button, now the other way: keyboard users carry on from where they were.
  await expect(page.getByRole("button", { name: `Make staff ${ivy.name}` })).toBeFocused();
  await page.getByRole("button", { name: `Make staff ${ivy.name}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `${ivy.name} is now staff.` })).toBeVisible();
  await expect(ivyRow.getByRole("cell").nth(1)).toHaveText(/staff$/);

  await page.getByRole("button", { name: `Password reset link for ${ivy.name}` }).click();
  const reset = page.getByLabel(`Password reset link for ${ivy.email}`);
  await expect(reset).toBeFocused();
  expect(await reset.inputValue()).toMatch(linkPattern(baseURL!, "/reset-password"));
  await expect(page.getByText(`Send this link to ${ivy.email}; it works once, for 24 hours.`)).toBeVisible();

  await page.getByRole("button", { name: `Deactivate ${ivy.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Deactivate ${ivy.name}?` });
  await expect(dialog).toContainText("can no longer sign in");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(ivyRow.getByRole("cell").nth(2)).toHaveText(/active$/);

  await page.getByRole("button", { name: `Deactivate ${ivy.name}` }).click();
  await dialog.getByRole("button", { name: "Yes, deactivate" }).click();
  await expect(page.getByText(`Deactivated ${ivy.name}`)).toBeFocused();
  await expect(ivyRow.getByRole("cell").nth(2)).toHaveText(/deactivated$/);
  // A deactivated account gets no reset link: it is reactivated first.
  await expect(page.getByRole("button", { name: `Password reset link for ${ivy.name}` })).toHaveCount(0);

  await page.getByRole("button", { name: `Reactivate ${ivy.name}` }).click();
  await expect(page.getByText(`Reactivated ${ivy.name}: they can sign in again.`)).toBeFocused();
  await expect(ivyRow.getByRole("cell").nth(2)).toHaveText(/active$/);
});

test("the only active owner cannot be made staff or deactivated, and is told why", async ({ page }) => {
  await page.goto("/team");
  const refusal = `${OWNER.email} is the only active owner: make another owner first.`;
  await page.getByRole("button", { name: `Make staff ${OWNER.name}` }).click();
  // Read out as it appears (role="alert"), where the list tells what changed.
  await expect(page.getByRole("alert").filter({ hasText: refusal })).toHaveText(refusal);
  await expect(row(page, `${OWNER.name} (you)`).getByRole("cell").nth(1)).toHaveText(/owner$/);

  await page.getByRole("button", { name: `Deactivate ${OWNER.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Deactivate ${OWNER.name}?` });
  await expect(dialog).toContainText("You can no longer sign in");
  await dialog.getByRole("button", { name: "Yes, deactivate" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("alert").filter({ hasText: refusal })).toHaveText(refusal);
  await expect(row(page, `${OWNER.name} (you)`).getByRole("cell").nth(2)).toHaveText(/active$/);
  await expect(page).toHaveURL(/\/team$/);
});

test("an owner who makes themself staff, with another owner there, leaves the team page", async ({ page, browser, createAccount, sql }) => {
  const id = unique();
  const otto = { email: `otto-${id}@plants.example`, name: `Otto Owner ${id}`, role: "owner" as const, password: PASSWORD };
  await createAccount(otto);
  try {
    await page.goto("/team");
    await page.getByRole("button", { name: `Make staff ${OWNER.name}` }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("status").filter({ hasText: "You are now staff: the team is managed by its owners." })).toBeFocused();
    await expect(page.getByRole("banner").getByText(`${OWNER.name} (staff)`)).toBeVisible();
    await expect(navLink(page, "Team")).toHaveCount(0);
    expect((await page.request.get("/team")).status()).toBe(404);

    // The other owner gives the role back, and steps down in turn.
    const other = await signedIn(browser, otto);
    await other.page.goto("/team");
    await other.page.getByRole("button", { name: `Make owner ${OWNER.name}` }).click();
    await expect(row(other.page, OWNER.email).getByRole("cell").nth(1)).toHaveText(/owner$/);
    await other.page.getByRole("button", { name: `Make staff ${otto.name}` }).click();
    await expect(other.page).toHaveURL(/\/$/);
    await other.context.close();
  } finally {
    // Whatever failed above, the other specs find OWNER the only active owner.
    await sql("UPDATE users SET role = 'owner' WHERE email = $1", [OWNER.email]);
    await sql("UPDATE users SET role = 'staff' WHERE email = $1", [otto.email]);
  }
  await page.goto("/team");
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
});

test("the team page passes axe with a link shown, at 1280 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/team");
  await invite(page, `axe-wide-${unique()}@plants.example`, "owner");
  await expectNoAxeViolations(page);
});

test("the team page passes axe with a link shown, at 375 px, and nothing scrolls sideways", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/team");
  await invite(page, `axe-narrow-${unique()}@plants.example`);
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

async function signedIn(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await signIn(page, user.email, user.password);
  await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
  return { context, page };
}

test.describe("as staff who are not owners", () => {
  test.use({ storageState: SIGNED_OUT });

  test("the team is not there: no link, and 404 for the page", async ({ browser, createAccount }) => {
    const staff = { email: `sol-${unique()}@plants.example`, name: "Sol Staff", role: "staff" as const, password: PASSWORD };
    await createAccount(staff);
    const { context, page } = await signedIn(browser, staff);
    await expect(navLink(page, "Team")).toHaveCount(0);
    expect((await page.request.get("/team")).status()).toBe(404);
    await page.goto("/team");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await context.close();
  });
});
