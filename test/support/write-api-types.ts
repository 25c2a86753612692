// npm run api:types: regenerates test/support/plant-store-api.ts from the OpenAPI document.
import { writeFileSync } from "node:fs";
import { API_TYPES_FILE, renderApiTypes } from "@/test/support/api-types";

void renderApiTypes().then((source) => {
  writeFileSync(API_TYPES_FILE, source);
  console.log(`wrote ${API_TYPES_FILE}`);
});
