import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// Code that runs in the browser: components, lib/client/, and the modules both
// sides share (lib/validations/, lib/json/). It may import those, and no
// server module: a server module in the browser bundle would fail at run time
// or ship server code (and its secrets' handling) to every visitor.
// (`server-only` would say the same at build time, but throws under tsx and
// Vitest, which import server modules directly.)
const BROWSER_CODE = ["components/**", "lib/client/**", "lib/validations/**", "lib/json/**"];
const BROWSER_SAFE_ONLY = {
  patterns: [
    {
      group: ["@/lib/*", "!@/lib/client", "!@/lib/validations", "!@/lib/json"],
      message: "browser code may import only lib/client, lib/validations and lib/json; server modules stay out of the bundle",
    },
    {
      // zxcvbn's dictionaries are 1.6 MB: lib/auth/passwords/password-strength.ts checks passwords on the server.
      group: ["node:*", "next-auth/jwt", "next/headers", "@prisma/*", "better-sqlite3", "@node-rs/*", "@zxcvbn-ts/*"],
      message: "a server-only package has no place in browser code",
    },
  ],
};

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  { files: BROWSER_CODE, rules: { "no-restricted-imports": ["error", BROWSER_SAFE_ONLY] } },
  { ignores: ["lib/generated/**", ".next/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "bench/ceiling/.next/**"] },
];

export default config;
