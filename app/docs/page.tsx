import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference/api-reference";
import { SiteHeader } from "@/components/site/site-header";
import { signInPath } from "@/lib/auth/sessions/callback-url";
import { currentStaff } from "@/lib/auth/sessions/require-staff";

export const metadata: Metadata = {
  title: "Plant Store API reference",
  description: "The Plant Store API, rendered from its OpenAPI document at /openapi.json.",
};

// Public: the reference describes the API and holds no data. Staff signed in
// get the app's whole header (it is one of their pages too); a visitor gets
// the same header without the staff pages, and a way to sign in that leads
// back here. Landmarks as on the other pages: a header, then the one
// top-level <main id="main"> that the root layout's skip link points at; the
// reference (whose own title is the page's h1) adds none of its own.
export default async function ApiDocsPage() {
  const user = await currentStaff();
  return (
    <>
      <SiteHeader user={user} signInHref={signInPath("/docs")} />
      <main id="main">
        <ApiReference documentUrl="/openapi.json" />
      </main>
    </>
  );
}
