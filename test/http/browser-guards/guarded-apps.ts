import type { AppServer } from "@/test/support/app-server";

/**
 * The two apps test/http/browser-guards.test.ts starts for its tests: `app`
 * on plain http with one CORS origin listed (https://shop.example), and
 * `secure`, whose NEXTAUTH_URL is https://plants.example, as behind a proxy
 * that ends TLS.
 */
export type GuardedApps = { app: AppServer; secure: AppServer };
