import { expect, expectNoAxeViolations, test } from "./fixtures";
import { addPlants } from "./plants";

// The staff pages follow changes made anywhere (issue 32), here the plant
// list: a second browser of the same store adds, renames and deletes plants
// while the first has the list open. Nothing moves under the first person's
// hand: the row changes where it is, new plants are counted until asked for,
// focus stays in the field they are typing in, and the count is said once.

const TAG = "e2e-live";

test("the plant list shows another browser's new plant, change and delete without a reload, focus staying where it was", async ({ page, browser, ownerState }) => {
  await addPlants(page, [{ id: 7_800_001n, name: "Seen fern", tag: TAG }]);
  await page.goto(`/?tag=${TAG}`);
  await expect(page.getByRole("rowheader")).toHaveText(["Seen fern"]);
  // Every text the live region says, as a screen reader would hear it.
  await page.getByRole("status").filter({ hasText: /^$/ }).evaluate((region) => {
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    new MutationObserver(() => region.textContent && said.push(region.textContent)).observe(region, { childList: true, characterData: true, subtree: true });
  });
  const search = page.getByLabel("Name contains");
  await search.fill("half-typed");
  await expect(search).toBeFocused();

  const other = await browser.newContext({ storageState: ownerState });
  const elsewhere = await other.newPage();
  try {
    // Below -2^53, so exact only as a bigint: no other spec's next id is counted from it, as one above 2^53 would be.
    await addPlants(elsewhere, [{ id: -9_007_199_254_800_001n, name: "Arrived palm", tag: TAG }]);
    await expect(page.getByRole("status").filter({ hasText: "new plant" })).toHaveText("1 new plant since this page was read.");
    // Not shown until asked for: the rows stay as they were.
    await expect(page.getByRole("rowheader")).toHaveText(["Seen fern"]);

    const renamed = await elsewhere.request.patch("/plants/7800001", {
      headers: { "content-type": "application/merge-patch+json", "sec-fetch-site": "same-origin" },
      data: '{"name":"Renamed fern"}',
    });
    expect(renamed.status()).toBe(200);
    await expect(page.getByRole("rowheader")).toHaveText(["Renamed fern"]);
    const deleted = await elsewhere.request.delete("/plants/7800001", { headers: { "sec-fetch-site": "same-origin" } });
    expect(deleted.status()).toBe(204);
    await expect(page.getByRole("rowheader")).toHaveText(["Renamed fern (deleted)"]);
  } finally {
    await other.close();
  }
  await expect(search).toBeFocused();
  await expect(search).toHaveValue("half-typed");
  expect(await page.evaluate(() => (window as unknown as { said: string[] }).said)).toEqual(["1 new plant since this page was read."]);

  await page.getByRole("button", { name: "Show it" }).click();
  await expect(page.getByRole("rowheader")).toHaveText(["Arrived palm"]);
  await expect(page.getByRole("table")).toBeFocused();
  await expect(page.getByRole("button", { name: "Show it" })).toHaveCount(0);
  // The id exact past -2^53, as the page read it again.
  await expect(page.locator("td.id")).toHaveText(["-9007199254800001"]);
});

test("a plant's page takes another browser's change and says who made it; mid-edit it offers the choice before any save; a delete shows Restore", async ({ page, browser, ownerState }) => {
  const id = 7_800_101n;
  await addPlants(page, [{ id, name: "Edited fern", tag: TAG }]);
  await page.goto(`/plants/${id}`);
  const name = page.getByLabel("Name", { exact: true });
  await expect(name).toBeEnabled();
  const fact = (term: string) => page.getByRole("term").filter({ hasText: new RegExp(`^${term}$`) }).locator("xpath=following-sibling::dd");
  // The history's changes, newest first (the first row group is the headers').
  const historyRows = page.getByRole("table", { name: "History" }).getByRole("rowgroup").nth(1).getByRole("row");

  const other = await browser.newContext({ storageState: ownerState });
  const elsewhere = other.request;
  const patch = async (body: string) => {
    const response = await elsewhere.patch(`/plants/${id}`, { headers: { "content-type": "application/merge-patch+json", "sec-fetch-site": "same-origin" }, data: body });
    expect(response.status(), await response.text()).toBe(200);
  };
  try {
    // Untouched: the form and the page take the new version, and say whose it is.
    await patch('{"name":"Their fern"}');
    await expect(page.getByRole("status").filter({ hasText: "changed this plant" })).toHaveText("Olive Owner changed this plant: the form now holds the saved version.");
    await expect(name).toHaveValue("Their fern");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Their fern");

    // Mid-edit: the choice is offered at once, and the person keeps typing where they were; the heading, the
    // facts and the history describe what is stored, and take the saved version beside the choice (issue 44).
    await name.fill("My fern");
    await patch(`{"name":"Their Boston fern","tag":"${TAG}-theirs"}`);
    await expect(page.getByRole("heading", { name: "Someone else changed this plant" })).toBeVisible();
    await expect(fact("Version")).toHaveText("3");
    await expect(fact("Tag")).toHaveText(`${TAG}-theirs`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Their Boston fern");
    await expect(historyRows).toHaveCount(3);
    await expect(historyRows.first()).toContainText(`${TAG}-theirs`);
    await expect(name).toHaveValue("My fern");
    await expect(name).toBeFocused();
    await page.getByRole("button", { name: "Keep my edit" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText(`Saved: My fern, tag ${TAG}-theirs.`);

    // Deleted elsewhere: the page says so, by whom, with the owner's Restore.
    const deleted = await elsewhere.delete(`/plants/${id}`, { headers: { "sec-fetch-site": "same-origin" } });
    expect(deleted.status()).toBe(204);
    await expect(page.getByText("This plant was deleted on")).toContainText("by Olive Owner");
    await expect(page.getByRole("button", { name: /^Restore/ }).first()).toBeVisible();
  } finally {
    await other.close();
  }
});

test("a list the person cannot see holds no stream, and catches up when shown again", async ({ page, browser, ownerState }) => {
  const id = 7_800_201n;
  await addPlants(page, [{ id, name: "Hidden fern", tag: `${TAG}-hidden` }]);
  const streams: string[] = [];
  page.on("request", (request) => new URL(request.url()).pathname === "/plants/events" && streams.push(request.url()));
  await page.goto(`/?tag=${TAG}-hidden`);
  await expect.poll(() => streams.length).toBe(1);
  const visibility = (state: "hidden" | "visible") =>
    page.evaluate((value) => {
      Object.defineProperty(document, "visibilityState", { value, configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    }, state);
  await visibility("hidden");

  const other = await browser.newContext({ storageState: ownerState });
  try {
    const renamed = await other.request.patch(`/plants/${id}`, { headers: { "content-type": "application/merge-patch+json", "sec-fetch-site": "same-origin" }, data: '{"name":"Found fern"}' });
    expect(renamed.status()).toBe(200);
  } finally {
    await other.close();
  }
  await visibility("visible");
  await expect(page.getByRole("rowheader")).toHaveText(["Found fern"]);
  // One stream again, opened where the first stopped (the list's own position: nothing came meanwhile).
  expect(streams).toHaveLength(2);
  expect(new URL(streams[1]!).searchParams.get("after")).toBe(new URL(streams[0]!).searchParams.get("after"));
});

test("the Activity page counts another browser's new records for its filters until asked, then shows them and takes focus there", async ({ page, browser, ownerState }) => {
  const id = 7_800_301n;
  await page.goto(`/activity?plant=${id}`);
  await expect(page.getByRole("status").filter({ hasText: "No record matches" })).toBeVisible();
  const typing = page.getByLabel("To", { exact: true });
  await typing.fill("2099-12-31");
  await expect(typing).toBeFocused();

  const other = await browser.newContext({ storageState: ownerState });
  const elsewhere = await other.newPage();
  try {
    await addPlants(elsewhere, [{ id, name: "Recorded fern", tag: TAG }]);
    // Another plant's record is not this page's.
    await addPlants(elsewhere, [{ id: id + 1n, name: "Unrecorded fern", tag: TAG }]);
    const renamed = await elsewhere.request.patch(`/plants/${id}`, { headers: { "content-type": "application/merge-patch+json", "sec-fetch-site": "same-origin" }, data: '{"name":"Re-recorded fern"}' });
    expect(renamed.status()).toBe(200);
    await expect(page.getByRole("status").filter({ hasText: "new record" })).toHaveText("2 new records since this page was read.");
  } finally {
    await other.close();
  }
  await expect(typing).toBeFocused();
  await expect(typing).toHaveValue("2099-12-31");
  await expect(page.getByRole("rowheader")).toHaveCount(0);
  // The page's new state: its count and button.
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Show them" }).click();
  await expect(page.getByRole("rowheader")).toHaveCount(2);
  await expect(page.locator("#activity-records")).toBeFocused();
  await expect(page.getByRole("button", { name: "Show them" })).toHaveCount(0);
});

test("the Team page shows an invitation made elsewhere (the CLI's) without a reload, keeping what is typed", async ({ page, store }) => {
  // Not "invite": the team page spec finds its Invite button by that name, which a row's buttons would then share.
  const email = `live-team-${Date.now()}@plants.example`;
  await page.goto("/team");
  const typing = page.getByLabel("Email");
  await typing.fill("half-typed@");
  await expect(typing).toBeFocused();
  await store.invitationPath(email, "staff");
  await expect(page.getByRole("row").filter({ hasText: email })).toContainText("staff");
  await expect(typing).toBeFocused();
  await expect(typing).toHaveValue("half-typed@");
});

test("a sign-out in one tab ends the other tabs' streams and takes them to sign-in", async ({ browser, ownerState }) => {
  const context = await browser.newContext({ storageState: ownerState });
  try {
    const following = await context.newPage();
    const streams: string[] = [];
    following.on("request", (request) => new URL(request.url()).pathname === "/plants/events" && streams.push(request.url()));
    await following.goto("/");
    await expect.poll(() => streams.length).toBe(1);
    const leaving = await context.newPage();
    await leaving.goto("/account");
    await leaving.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(leaving).toHaveURL(/\/sign-in$/);
    await expect(following).toHaveURL(/\/sign-in/);
    await expect(following.getByRole("heading", { level: 1 })).toHaveText("Sign in to Plant Store");
  } finally {
    await context.close();
  }
});
