import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference";

export const metadata: Metadata = {
  title: "Plant Store API reference",
  description: "The Plant Store API, rendered from its OpenAPI document at /openapi.json.",
};

// Public: the reference describes the API and holds no data.
export default function ApiDocsPage() {
  return (
    <main>
      <ApiReference documentUrl="/openapi.json" />
    </main>
  );
}
