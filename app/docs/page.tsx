import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference } from "@/components/api-reference";

export const metadata: Metadata = {
  title: "Plant Store API reference",
  description: "The Plant Store API, rendered from its OpenAPI document at /openapi.json.",
};

// Public: the reference describes the API and holds no data. Landmarks as on
// the other pages: a header, then the one top-level <main id="main"> that the
// root layout's skip link points at; the reference (whose own title is the
// page's h1) adds none of its own.
export default function ApiDocsPage() {
  return (
    <>
      <header className="site-header">
        <Link href="/" className="brand">
          Plant Store
        </Link>
      </header>
      <main id="main">
        <ApiReference documentUrl="/openapi.json" />
      </main>
    </>
  );
}
