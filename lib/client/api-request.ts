import { parseExactJson } from "@/lib/json/exact-json";

// The staff app's requests to its own API (lib/client/plant-*.ts): the session
// cookie authenticates them, and answers are read as exact JSON, so ids never
// pass through a JS number.

/** `init` sent to `url` on this site with the session cookie; undefined when nothing answered (offline, the connection dropped). */
export async function sendToApi(fetcher: typeof fetch, url: string, init: RequestInit): Promise<Response | undefined> {
  try {
    return await fetcher(url, { ...init, credentials: "same-origin" });
  } catch {
    return undefined;
  }
}

/** An answer's body as exact JSON; undefined when it is not JSON (a proxy's error page, an empty body). */
export function readApiAnswer(text: string): unknown {
  try {
    return parseExactJson(text);
  } catch {
    return undefined;
  }
}
