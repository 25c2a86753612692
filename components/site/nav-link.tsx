"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

/**
 * An item of the header's navigation list (its li): a link, marked as the current page (aria-current) on its page, and as current on the pages beneath it.
 * `reload` makes it a plain link, a full page load rather than a client-side route (for /docs, where Swagger UI,
 * a React app of its own, starts on a fresh page as it always has); it is marked all the same.
 * `beneath` names another path whose pages belong to this link's section (but the `except` ones, which have
 * links of their own): the Plants list's section holds each plant's page, /plants/{id}.
 */
export function NavLink({
  href,
  reload = false,
  beneath,
  except = [],
  children,
}: {
  href: string;
  reload?: boolean;
  beneath?: string;
  except?: readonly string[];
  children: ReactNode;
}) {
  const pathname = usePathname();
  const inSection = (prefix: string) => pathname.startsWith(prefix) && !except.includes(pathname);
  const current = pathname === href ? "page" : (href !== "/" && inSection(`${href}/`)) || (beneath !== undefined && inSection(beneath)) ? "true" : undefined;
  return (
    <li>
      {reload ? (
        <a href={href} aria-current={current}>
          {children}
        </a>
      ) : (
        <Link href={href} aria-current={current}>
          {children}
        </Link>
      )}
    </li>
  );
}
