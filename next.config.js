/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // npm test type-checks the whole project (npm run typecheck) beside the build:
  // it turns the build's own check, the same one on fewer files, off.
  typescript: { ignoreBuildErrors: process.env.PLANT_STORE_BUILD_TYPECHECK === "off" },
  reactStrictMode: true,
  // Every page's <title> in its <head>, never streamed in after the content
  // (Next streams it for all but a list of crawlers): a screen reader names
  // the page as it loads, and a plant's title costs no more than its page.
  htmlLimitedBots: /.*/,
  // Native and engine-backed packages are loaded by Node at run time, not bundled;
  // esbuild (a native binary too) bundles the service worker during the build (app/sw.js/route.ts).
  // rate-limiter-flexible: one limiter per process serves Next's bundle and the server's own event streams
  // (lib/server/direct-streams.ts), and each must know the refusals it throws (instanceof RateLimiterRes).
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg", "pino", "esbuild", "rate-limiter-flexible"],
  experimental: {
    serverActions: {
      // The staff import's preview sends a CSV of up to the batch's 2 MiB
      // (PLANT_BATCH_MAX_BYTES, lib/validations/plant-batch.ts) to a server
      // action, which reads it under that limit itself; the multipart framing
      // adds a few hundred bytes. Next's default of 1 MB would refuse half of them.
      bodySizeLimit: 2 * 1024 * 1024 + 64 * 1024,
    },
  },
  // A plant's page is at the plant's URL, /plants/{id}, where programs get the API's JSON (issue 11).
  // A browser's page load is decided in proxy.ts; Next's router fetching the page (a navigation in the
  // app, a refresh, a prefetch: the RSC header) and its server actions are decided here, because Next hides its router's
  // headers from the proxy. Never for a request with credentials in Authorization: that is a program.
  // After files: /plants/new and /plants/batch, routes of their own, are never taken for an id.
  rewrites: async () => [
    {
      source: "/plants/:id",
      has: [{ type: "header", key: "rsc", value: "1" }],
      missing: [{ type: "header", key: "authorization" }],
      destination: "/plant-page/:id",
    },
    // The page's server actions (a deleted plant's Restore) post to the page's URL with Next-Action;
    // the API has no POST there. The server checks their origin first (lib/server/server-action-origin.ts).
    {
      source: "/plants/:id",
      has: [{ type: "header", key: "next-action" }],
      missing: [{ type: "header", key: "authorization" }],
      destination: "/plant-page/:id",
    },
  ],
};

module.exports = nextConfig;
