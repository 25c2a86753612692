import { INT64_MAX } from "@/lib/validations/plant-limits";

// The id the form offers next: the server's suggestion (one more than the
// largest stored id, lib/plants/next-plant-id.ts), or one more than any id
// used here since that suggestion was made (plants just saved, plants
// waiting to be sent), whichever is larger: the server has not seen those.

/** The next id to offer, as text; "" when there is none to offer. */
export function nextPlantId(suggested: string, used: readonly bigint[]): string {
  const candidates = used.map((id) => id + 1n).filter((id) => id <= INT64_MAX);
  if (/^-?\d+$/.test(suggested)) candidates.push(BigInt(suggested));
  if (candidates.length === 0) return "";
  return candidates.reduce((largest, id) => (id > largest ? id : largest)).toString();
}
