// The JSON of an event, as a webhook delivers it and the change feed sends it
// (issue 32: one parser serves both).

/**
 * `{"type","timestamp","data"}`, built as text, never by JSON.stringify of
 * parsed data, so the database's JSON (int64 ids among it) arrives digit for digit.
 */
export function eventBody(event: { type: string; createdAt: Date; data: string }): string {
  return `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(event.createdAt.toISOString())},"data":${event.data}}`;
}
