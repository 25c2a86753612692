import { describeError, log } from "@/lib/server/log";

// A CSV answer streamed as it is made: each chunk is produced when the client
// has taken the one before (a ReadableStream pulls only when its queue of one
// chunk is empty, and Next.js waits for the socket to drain before it takes
// the next), so memory holds a chunk or two however large the answer.

/** RFC 4180's media type, with the header parameter it defines (section 3) and the charset we write. */
export const CSV_MEDIA_TYPE = "text/csv; charset=utf-8; header=present";

/**
 * The answer for a sequence of CSV chunks; null chunks for HEAD, which gets
 * the headers without making the body. The first chunk is made before
 * this returns, so what fails at once is thrown to the caller (an Error
 * answer). A failure after the status has gone out can no longer change it:
 * the stream errors, the connection is cut before the last chunk, and the
 * client sees an incomplete answer rather than a CSV that looks whole.
 */
export async function csvResponse(
  chunks: AsyncGenerator<string> | null,
  { filename, requestId, headers }: { filename: string; requestId: string; headers?: Record<string, string> },
): Promise<Response> {
  const init = {
    headers: {
      ...headers,
      "content-type": CSV_MEDIA_TYPE,
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  };
  if (chunks === null) return new Response(null, init);
  const encoder = new TextEncoder();
  let first: IteratorResult<string> | undefined = await chunks.next();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = first ?? (await chunks.next());
          first = undefined;
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          log.error("CSV answer failed after it began; the connection is cut", { requestId, ...describeError(error) });
          controller.error(error);
        }
      },
      async cancel() {
        // The client went away: stop reading pages.
        await chunks.return(undefined);
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
  return new Response(body, init);
}
