import type { ServerResponse } from "node:http";

/**
 * Makes a response's Vary name `field` whatever its handler sets. Next.js
 * sets Vary on every page and route answer itself, replacing what the proxy
 * put there, so the field is added at the last moment: when the head is
 * written (ServerResponse writes it through writeHead, explicitly or not, as
 * the on-headers package relies on too).
 */
export function varyAlwaysOn(response: ServerResponse, field: string): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    const current = this.getHeader("vary");
    const fields = (Array.isArray(current) ? current.join(",") : String(current ?? ""))
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    if (!fields.includes("*") && !fields.some((name) => name.toLowerCase() === field.toLowerCase())) {
      this.setHeader("vary", [...fields, field].join(", "));
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}
