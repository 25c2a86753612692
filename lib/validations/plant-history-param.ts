// The plant page's query parameter for a page of its history, apart from its
// parser: the browser's side of the page reads it as written (components/plants/plant-history-rows-for.tsx).
export const HISTORY_BEFORE_PARAM = "historyBefore";

/** The parameter as an address writes it, from its values there: absent, one value, or several (joined by "&", which no value holds unescaped). */
export function historyPageAsked(values: readonly string[]): string | undefined {
  return values.length === 0 ? undefined : values.join("&");
}
