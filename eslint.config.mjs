import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  { ignores: ["lib/generated/**", ".next/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "lib/bench/ceiling/.next/**"] },
];

export default config;
