import { exactInteger } from "@/lib/json/exact-json";

// A JavaScript number holds integers exactly only up to 2^53, and prints
// the shortest text that reads back as the same double. Code that reads JSON
// into numbers (Swagger UI on /docs, for one) so shows 9223372036854775807 as
// 9223372036854776000 (the double it rounded to), and even -9223372036854775808,
// which a double holds exactly, as -9223372036854776000. Where the JSON text is
// at hand, what such code writes can be put right again: each such integer is
// known by how its double prints.

// A JSON string (skipped whole, so digits inside one are never taken for a
// number) or a number literal that is not part of a longer word.
const TOKEN = /"(?:[^"\\]|\\.)*"|(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])/g;

/** How JavaScript prints the double an integer became ("9223372036854776000"), to the integer ("9223372036854775807"). */
export type RoundedIntegers = ReadonlyMap<string, string>;

/**
 * The integers in the JSON text `json` whose double prints as another
 * number, by how it prints. Two integers that print alike (9223372036854775807
 * and 9223372036854775808 both print 9223372036854776000) are left out:
 * the printed one cannot tell which it was.
 */
export function roundedIntegers(json: string): RoundedIntegers {
  const exact = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const [token] of json.matchAll(TOKEN)) {
    if (token.startsWith('"')) continue;
    const value = exactInteger(token);
    const printed = String(Number(token));
    if (value === undefined || exactInteger(printed) === value) continue;
    const written = value.toString();
    if (exact.has(printed) && exact.get(printed) !== written) ambiguous.add(printed);
    else exact.set(printed, written);
  }
  for (const printed of ambiguous) exact.delete(printed);
  return exact;
}

/** `text` (a constraint such as "[-9223372036854776000, 9223372036854776000]", or JSON) with each rounded integer written exactly again; JSON strings in it are left alone. */
export function restoreRoundedIntegers(text: string, rounded: RoundedIntegers): string {
  if (rounded.size === 0) return text;
  return text.replace(TOKEN, (token) => (token.startsWith('"') ? token : (rounded.get(token) ?? token)));
}
