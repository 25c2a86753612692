import { parse, stringify } from "lossless-json";

// JSON that keeps int64 ids exact. JSON.parse turns 9007199254740993 into
// 9007199254740992 without a word (Node 20 has no source-text access), so
// numbers are read from their text: an integer becomes a bigint, anything else
// a number. Works in the browser too.

// Literals beyond this many integer digits are far outside int64; they stay
// numbers, so a huge exponent (1e999999999) never becomes a huge bigint.
const MAX_INTEGER_DIGITS = 40;

const NUMBER_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The exact integer a JSON number literal denotes (1.0, 1e3 and -0 included), or undefined. */
export function exactInteger(literal: string): bigint | undefined {
  const match = NUMBER_LITERAL.exec(literal);
  if (!match) return undefined;
  const [, sign = "", whole = "", fraction = "", exponentText = "0"] = match;
  const digits = (whole + fraction).replace(/^0+/, "");
  if (digits === "") return 0n;
  if (exponentText.replace(/^[+-]?0*/, "").length > 6) return undefined;
  // The value is digits × 10^shift.
  const shift = Number(exponentText) - fraction.length;
  const significant = digits.replace(/0+$/, "");
  const trailingZeros = digits.length - significant.length;
  if (shift + trailingZeros < 0) return undefined; // a fraction remains
  if (digits.length + shift > MAX_INTEGER_DIGITS) return undefined;
  const magnitude = shift >= 0 ? BigInt(digits) * 10n ** BigInt(shift) : BigInt(digits.slice(0, digits.length + shift));
  return sign === "-" ? -magnitude : magnitude;
}

export function parseExactJson(text: string): unknown {
  return parse(text, null, (literal) => exactInteger(literal) ?? Number(literal));
}

/** Like JSON.stringify, but writes bigints as exact JSON integers. */
export function stringifyExactJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError("value has no JSON form");
  return text;
}
