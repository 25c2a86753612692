import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/sign-out-button";
import { currentStaff } from "@/lib/auth/require-staff";

// The frame of every staff page. It only shows who is signed in: each page
// checks the session itself, since a layout is not re-run on every navigation.
export default async function StaffLayout({ children }: { children: ReactNode }) {
  const user = await currentStaff();
  return (
    <>
      <header className="site-header">
        <Link href="/" className="brand">
          Plant Store
        </Link>
        <nav aria-label="Main">
          <ul>
            <li>
              <Link href="/">Plants</Link>
            </li>
            <li>
              <Link href="/plants/new">Add a plant</Link>
            </li>
            <li>
              <Link href="/tokens">API tokens</Link>
            </li>
            <li>
              {/* Served by the API's own docs page; a plain link, not a client-side route. */}
              <a href="/docs">API docs</a>
            </li>
          </ul>
        </nav>
        {user && (
          <p className="who">
            <span>
              {user.name} ({user.role})
            </span>{" "}
            <SignOutButton />
          </p>
        )}
      </header>
      <main id="main">{children}</main>
    </>
  );
}
