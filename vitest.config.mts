import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts"],
    // HTTP tests start the built app (npm run build first); each file runs its own servers.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more files at once only make the servers under test slower.
    maxWorkers: 2,
  },
});
