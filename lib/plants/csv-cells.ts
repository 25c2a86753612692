// How a plant's text travels in CSV (RFC 4180), both ways. A spreadsheet
// opening an export reads a cell that begins with =, +, - or @ as a formula
// (CSV injection, OWASP): "=HYPERLINK(...)" as a name would become a live link
// or worse. So a text cell (name, tag) that begins with one of those, or with
// the apostrophe this rule itself uses, is written with one apostrophe in
// front, which spreadsheets show as text and do not evaluate; and reading CSV
// removes exactly that one apostrophe again, so an export imported back stores
// every name and tag exactly as it was. Ids are numbers and never escaped:
// -5 stays -5.

const NEEDS_GUARD = /^[=+\-@']/;

/** A name or tag as written into a CSV cell. */
export function guardCsvText(value: string): string {
  return NEEDS_GUARD.test(value) ? `'${value}` : value;
}

/** A CSV cell's text as the name or tag it stands for. */
export function unguardCsvText(cell: string): string {
  return cell.startsWith("'") && NEEDS_GUARD.test(cell.slice(1)) ? cell.slice(1) : cell;
}
