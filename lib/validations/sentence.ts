// The schemas' messages are written for API clients and the CLI: they start
// with the field as a client names it ("label must be at most 100 characters")
// and the HTTP tests pin them. A form shows the same message, from the same
// schema, as a sentence for a person: "Label must be at most 100 characters."
// Browser-safe: imports nothing.

const NOT_A_WORD_CHARACTER = "(?![\\p{L}\\p{N}_])";

/**
 * `message` as a sentence: when it starts with the field's name written as
 * `label` (case aside: "url" for "URL"), that name is written as `label`;
 * the first letter is a capital; and it ends with a full stop unless it
 * already ends a sentence. Applying it twice changes nothing more.
 */
export function sentence(message: string, label?: string): string {
  let text = message.trim();
  if (text === "") return text;
  if (label) text = text.replace(new RegExp(`^${escapeRegExp(label)}${NOT_A_WORD_CHARACTER}`, "iu"), label);
  const [first = ""] = text;
  text = first.toUpperCase() + text.slice(first.length);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
