import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";

// The staff form calls POST /plants with the session cookie. A browser sends
// that cookie on requests other pages make too, so the API must refuse it
// unless the request comes from the app's own origin.

const refusal = { error: 403, message: "a staff session is accepted only from this app's own pages; other clients must send a bearer token" };

test("the session cookie is refused on requests that are not same-origin, and nothing is written", async ({ page, baseURL }) => {
  await page.goto("/");
  const otherPort = `http://127.0.0.1:${Number(new URL(baseURL!).port) + 1}`;
  const cases: [string, Record<string, string>][] = [
    ["another site's Origin", { origin: "https://evil.example" }],
    ["another port's Origin (same site, other origin)", { origin: otherPort }],
    ["Fetch Metadata cross-site", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }],
    ["Fetch Metadata same-site", { "sec-fetch-site": "same-site", origin: otherPort }],
    ["Fetch Metadata wins over a matching Origin", { "sec-fetch-site": "cross-site", origin: baseURL! }],
    ["no proof of origin at all", {}],
  ];
  let id = 880001;
  for (const [why, headers] of cases) {
    // page.request carries the browser context's cookies: the signed-in owner's session.
    const response = await page.request.post("/plants", { headers, data: { id: id++, name: "Forged" } });
    expect(response.status(), why).toBe(403);
    expect(await response.json(), why).toEqual(refusal);
  }

  await page.goto("/");
  await expect(page.getByText("Forged")).toHaveCount(0);
});

test("the same cookie is accepted from the app's own origin", async ({ page, baseURL }) => {
  const cases: [number, Record<string, string>][] = [
    [880101, { "sec-fetch-site": "same-origin" }],
    [880102, { origin: baseURL! }],
  ];
  for (const [id, headers] of cases) {
    const response = await page.request.post("/plants", { headers, data: { id, name: "Same origin" } });
    expect(response.status()).toBe(200);
  }
});

test("an Authorization header always decides, even beside a valid session cookie", async ({ page }) => {
  const response = await page.request.post("/plants", {
    headers: { authorization: "Bearer not-a-token", "sec-fetch-site": "same-origin" },
    data: { id: 880201, name: "Header wins" },
  });
  expect(response.status()).toBe(401);
  expect(response.headers()["www-authenticate"]).toContain('error="invalid_token"');
});

test("a page on another origin cannot create a plant with the staff member's cookie", async ({ page, baseURL }) => {
  // Same host, other port: the same *site*, so the browser does send the
  // SameSite=Lax session cookie; only the origin check stands in the way.
  const elsewhere = createServer((_, response) => response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>elsewhere</title>"));
  await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
  const { port } = elsewhere.address() as AddressInfo;
  try {
    const post = (body: string) =>
      page.evaluate(
        // no-cors: a "simple" request needs no preflight, so it does reach the server.
        ([target, text]) => fetch(target!, { method: "POST", mode: "no-cors", credentials: "include", body: text }).then(() => undefined),
        [`${baseURL}/plants`, body],
      );
    await page.goto(`http://127.0.0.1:${port}/`);
    const refused = page.waitForResponse(`${baseURL}/plants`);
    await post('{"id":880301,"name":"Cross-origin"}');
    expect((await refused).status()).toBe(403);

    // Control: the same request from the app's own page passes authentication
    // and fails only on its media type, so the cookie was sent both times.
    await page.goto("/");
    const accepted = page.waitForResponse(`${baseURL}/plants`);
    await post('{"id":880302,"name":"Cross-origin"}');
    expect((await accepted).status()).toBe(415);
  } finally {
    elsewhere.close();
  }

  await page.goto("/");
  await expect(page.getByText("Cross-origin")).toHaveCount(0);
});

test("another site cannot frame the app's pages", async ({ browser, baseURL }) => {
  // A page of its own: the violation reported here is the very one expected.
  const page = await browser.newPage();
  const framing = createServer((_, response) =>
    response.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>framing</title><iframe src="${baseURL}/tokens"></iframe>`),
  );
  await new Promise<void>((resolve) => framing.listen(0, "127.0.0.1", resolve));
  const { port } = framing.address() as AddressInfo;
  try {
    const refused = page.waitForResponse(`${baseURL}/tokens`);
    await page.goto(`http://127.0.0.1:${port}/`);
    const answer = await refused;
    expect(answer.headers()["x-frame-options"]).toBe("DENY");
    expect(answer.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    // The browser shows its own error page in the frame, never the app's.
    const frame = page.frames().find((each) => each !== page.mainFrame());
    await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
  } finally {
    framing.close();
  }
});
