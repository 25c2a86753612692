import Link from "next/link";
import { NavLink } from "@/components/site/nav-link";
import { SignOutButton } from "@/components/site/sign-out-button";
import { WaitingPlantsIndicator } from "@/components/plants/waiting-plants-indicator";
import type { Role } from "@/lib/validations/user";

/** Whom the header is drawn for: a signed-in staff member, or null for a visitor (only /docs is public). */
export type HeaderUser = { name: string; role: Role } | null;

/**
 * The header of every page with a frame: the staff pages (app/(staff)/layout.tsx)
 * and the public API reference (app/docs/page.tsx). It only shows; each page
 * checks the session itself. Signed out, it offers no staff pages (they would
 * only send the visitor to sign-in) but a "Sign in" link to `signInHref`,
 * which should lead back to the page the visitor was on.
 */
export function SiteHeader({ user, signInHref = "/sign-in" }: { user: HeaderUser; signInHref?: string }) {
  return (
    <header className="site-header">
      <Link href="/" className="brand">
        Plant Store
      </Link>
      <nav aria-label="Main">
        <ul>
          {user && (
            <>
              <NavLink href="/" beneath="/plants/" except={["/plants/new"]}>
                Plants
              </NavLink>
              <NavLink href="/plants/new">Add a plant</NavLink>
              <NavLink href="/import">Import</NavLink>
              <NavLink href="/tokens">API tokens</NavLink>
              {user.role === "owner" && (
                <>
                  <NavLink href="/webhooks">Webhooks</NavLink>
                  <NavLink href="/team">Team</NavLink>
                  <NavLink href="/activity">Activity</NavLink>
                  <NavLink href="/backups">Backups</NavLink>
                </>
              )}
            </>
          )}
          {/* Swagger UI is loaded by a full page load, not a client-side route: see NavLink's reload. */}
          <NavLink href="/docs" reload>
            API docs
          </NavLink>
        </ul>
      </nav>
      {/* Plants added offline are sent from whichever page a signed-in person opens, and counted here while they wait. */}
      {user && <WaitingPlantsIndicator />}
      <p className="who">
        {user ? (
          <>
            {/* The person's name leads to their own account: name, email, password, sessions. */}
            <span>
              <Link href="/account">{user.name}</Link> ({user.role})
            </span>{" "}
            <SignOutButton />
          </>
        ) : (
          <Link href={signInHref}>Sign in</Link>
        )}
      </p>
    </header>
  );
}
