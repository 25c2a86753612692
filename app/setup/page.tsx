import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { OwnerSetupForm } from "@/components/sign-in/owner-setup-form";
import { hasAnyUser } from "@/lib/auth/accounts/users";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up Plant Store" };

// Offered only while the database has no account; once one exists this page is gone for good.
export default async function SetupPage() {
  if (await hasAnyUser()) notFound();
  return (
    <main id="main" className="narrow">
      <h1>Set up Plant Store</h1>
      <p>Create the owner account. The owner invites the rest of the team from the Team page, and manages everyone&apos;s API tokens.</p>
      <OwnerSetupForm />
    </main>
  );
}
