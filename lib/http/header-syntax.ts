// The shared syntax of HTTP header fields (RFC 9110 section 5.6): lists,
// tokens, quoted strings and parameters, as Accept and Prefer use them.

// RFC 9110 section 5.6.2: token characters.
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Splits on `separator` outside quoted strings (a parameter value may be "a,b;c"). */
export function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let part = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted && char === "\\") {
      part += char + (text[++index] ?? "");
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(part);
      part = "";
    } else {
      part += char;
    }
  }
  parts.push(part);
  return parts;
}

/** A token, or a quoted string's content; undefined for anything else. */
export function unquote(value: string): string | undefined {
  if (TOKEN.test(value)) return value;
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(value);
  return quoted ? quoted[1]!.replace(/\\(.)/g, "$1") : undefined;
}
