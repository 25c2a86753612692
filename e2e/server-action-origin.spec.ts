import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";

// A page on another origin that posts a form to a staff page, as a server
// action would be posted without script (multipart, with the action's id in
// a field). Same host, other port: the same site, so Chromium sends the
// signed-in owner's SameSite=Lax cookie; only the origin check stands in the
// way. The server refuses it with a 403 (issue 20), where Next.js answered 500.

// The pages whose actions change tokens, the team, a person's own account, and restore a deleted plant.
for (const target of ["/tokens", "/team", "/account", "/activity"]) {
  test(`another origin's form cannot run a server action of ${target}`, async ({ page, baseURL }) => {
    const elsewhere = createServer((_, response) =>
      response.writeHead(200, { "content-type": "text/html" }).end(
        `<!doctype html><title>elsewhere</title>
        <form method="post" action="${baseURL}${target}" enctype="multipart/form-data">
          <input type="hidden" name="$ACTION_ID_${"7f".repeat(21)}" value="">
          <input name="name" value="Forged elsewhere">
          <button>Send</button>
        </form>`,
      ),
    );
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    const { port } = elsewhere.address() as AddressInfo;
    try {
      await page.goto(`http://127.0.0.1:${port}/`);
      const refused = page.waitForResponse(`${baseURL}${target}`);
      await page.getByRole("button", { name: "Send" }).click();
      const answer = await refused;
      expect(answer.status()).toBe(403);
      expect(await answer.json()).toEqual({ error: 403, message: "a server action is accepted only from this app's own pages" });
    } finally {
      elsewhere.close();
    }

    await page.goto(target);
    await expect(page.getByText("Forged elsewhere")).toHaveCount(0);
  });
}
