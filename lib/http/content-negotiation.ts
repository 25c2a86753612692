import { splitOutsideQuotes, TOKEN, unquote } from "@/lib/http/header-syntax";

// Proactive content negotiation on Accept (RFC 9110 sections 12.1, 12.4.2
// and 12.5.1): the server offers its media types in its own order of
// preference, and answers with the one the client weighs highest.

type MediaRange = { type: string; subtype: string; parameters: Map<string, string>; weight: number };

// Section 12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ).
const QVALUE = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/;

/** One member of Accept, or undefined when malformed (such a member is ignored, as if not sent). */
function parseMediaRange(member: string): MediaRange | undefined {
  const [range = "", ...parameterTexts] = splitOutsideQuotes(member, ";").map((part) => part.trim());
  const [type = "", subtype = "", ...rest] = range.toLowerCase().split("/");
  if (rest.length > 0 || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === "*" && subtype !== "*")) return undefined;
  const parameters = new Map<string, string>();
  let weight = 1;
  for (const text of parameterTexts) {
    const equals = text.indexOf("=");
    const name = text.slice(0, equals).trim().toLowerCase();
    const value = unquote(text.slice(equals + 1).trim());
    if (equals < 0 || !TOKEN.test(name) || value === undefined) return undefined;
    if (name === "q") {
      if (!QVALUE.test(value)) return undefined;
      weight = Number(value);
      // Parameters after the weight are accept-ext, which no offer here uses.
      break;
    }
    parameters.set(name, value.toLowerCase());
  }
  return { type, subtype, parameters, weight };
}

function parseAccept(accept: string): MediaRange[] {
  return splitOutsideQuotes(accept, ",")
    .filter((member) => member.trim() !== "")
    .flatMap((member) => parseMediaRange(member) ?? []);
}

/** How specifically a range names an offer (RFC 9110 section 12.5.1: the most specific range decides), or -1 if it does not. */
function specificity(range: MediaRange, offer: MediaRange): number {
  if (range.type === "*") return 0;
  if (range.type !== offer.type) return -1;
  if (range.subtype === "*") return 1;
  if (range.subtype !== offer.subtype) return -1;
  for (const [name, value] of range.parameters) if (offer.parameters.get(name) !== value) return -1;
  return 2 + range.parameters.size;
}

/**
 * The offer to answer with: the one the Accept header weighs highest (its
 * most specific matching range decides its weight), the earlier offer on a
 * tie; undefined when none is acceptable (406). No Accept, or an empty one,
 * accepts anything: the first offer. Parameters of a range must be among the
 * offer's (text/csv;header=absent does not match a CSV with a header row).
 */
export function negotiateMediaType<const Offer extends string>(accept: string | null, offers: readonly Offer[]): Offer | undefined {
  if (accept === null || accept.trim() === "") return offers[0];
  const ranges = parseAccept(accept);
  let chosen: Offer | undefined;
  let chosenWeight = 0;
  for (const offer of offers) {
    const offered = parseMediaRange(offer);
    if (!offered) throw new TypeError(`not a media type: ${offer}`);
    let best = -1;
    let weight = 0;
    for (const range of ranges) {
      const rank = specificity(range, offered);
      if (rank < 0) continue;
      if (rank > best || (rank === best && range.weight > weight)) {
        best = rank;
        weight = range.weight;
      }
    }
    if (best >= 0 && weight > chosenWeight) {
      chosen = offer;
      chosenWeight = weight;
    }
  }
  return chosen;
}
