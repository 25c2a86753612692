import type { PlantFilter } from "@/lib/validations/plant";

// The name a staff member's CSV download is saved under: what it holds and
// the day it was made, so that several downloads sort and tell apart in a
// folder ("plants-tagged-tropical-2026-11-23.csv"). ASCII only: it goes in a
// quoted Content-Disposition filename, which needs no further encoding then.

const MOST_CHARACTERS_PER_FILTER = 40;

function slug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MOST_CHARACTERS_PER_FILTER)
    .replace(/^-+|-+$/g, "");
}

export function plantExportFileName({ tag, q }: PlantFilter, now: Date): string {
  const parts = ["plants"];
  const tagSlug = tag === undefined ? "" : slug(tag);
  const qSlug = q === undefined ? "" : slug(q);
  if (tagSlug) parts.push("tagged", tagSlug);
  if (qSlug) parts.push("named", qSlug);
  // Filters that leave no ASCII ("🌵") still say the file is a selection.
  else if (q !== undefined || (tag !== undefined && !tagSlug)) parts.push("found");
  parts.push(now.toISOString().slice(0, 10));
  return `${parts.join("-")}.csv`;
}
