import { defineConfig } from "prisma/config";

// Used by the Prisma CLI only. The app and its CLIs read DATABASE_URL through
// lib/env.ts; the same default is repeated here because this file must load
// without the app's code.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "file:./data/plant-store.db" },
});
