import { expect, it } from "vitest";
import { LINK_PATHS } from "@/lib/auth/accounts/account-link-url";
import { loggablePath } from "@/lib/server/request-record";

// A one-time link's secret never reaches the log, however the request wrote the path.

it.each(Object.values(LINK_PATHS))("leaves the secret of %s/<secret> out of the logged path", (page) => {
  const secret = "mF3kq9T2xYb7Lw0pRz4sNc8vJd1hGa6eQu5oXi2tKl8";
  for (const path of [`${page}/${secret}`, `${page}/${secret}/`, `${page.toUpperCase()}/${secret}`, `/.${page}/${secret}`, `/x/..${page}/${secret}`]) {
    const logged = loggablePath(path);
    expect(logged, path).not.toContain(secret);
    expect(logged, path).toContain(`/[secret]`);
  }
});

it("leaves other paths as they are", () => {
  expect(loggablePath("/plants/9007199254740993")).toBe("/plants/9007199254740993");
  expect(loggablePath("/joined/abc")).toBe("/joined/abc");
});
