import type { ReactNode } from "react";

/** One fact of a `dl className="facts"`: its term and what it is, grouped in a div (which a dl may hold) so they lay out as one. */
export function Fact({ term, className, children }: { term: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}
