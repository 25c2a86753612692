import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { OwnerSetupForm } from "@/components/owner-setup-form";
import { hasAnyUser } from "@/lib/auth/users";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up Plant Store" };

// Offered only while the database has no account; once one exists this page is gone for good.
export default async function SetupPage() {
  if (await hasAnyUser()) notFound();
  return (
    <main id="main" className="narrow">
      <h1>Set up Plant Store</h1>
      <p>Create the owner account. The owner manages everyone&apos;s API tokens; more staff accounts are added with the <code>npm run user</code> command.</p>
      <OwnerSetupForm />
    </main>
  );
}
