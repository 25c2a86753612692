import type { Positioned } from "@/lib/live/event-stream";

// The newest items a process's feed has read (issue 32), kept so that the
// streams that need them again read them from here rather than each from the
// database: a stream that falls behind (its client slow, or handed a batch
// import), and the clients that reconnect together after a restart with
// Last-Event-IDs of a moment ago. Ten thousand streams behind at once are
// then one read of the table, not ten thousand; and they share the items
// themselves, so each event's bytes are still encoded once (event-stream.ts).
//
// What is kept is every item after a position (`floor`), up to the newest
// read: any position from the floor on is answered exactly, gaps in the
// positions (activity record ids) included. Older positions, and any at or
// past the newest kept (the table may have newer), are the database's to answer.

export type RecentItems<Item extends Positioned> = {
  /** Keeps `read`, which the feed read as every item after `from`, in order. */
  add(from: bigint, read: readonly Item[]): void;
  /** Up to `limit` items after `position`, in order; undefined when only the database can say. */
  after(position: bigint, limit: number): readonly Item[] | undefined;
};

export function recentItems<Item extends Positioned>(capacity: number): RecentItems<Item> {
  let floor: bigint | undefined;
  let items: Item[] = [];
  const newest = () => items.at(-1)?.position ?? floor;

  return {
    add(from, read) {
      if (read.length === 0) return;
      // Not where the kept ones end (a feed that restarted its reading elsewhere): keep from here on only.
      if (from !== newest()) {
        floor = from;
        items = [];
      }
      items.push(...read);
      if (items.length > capacity) {
        const dropped = items.length - capacity;
        floor = items[dropped - 1]!.position;
        items = items.slice(dropped);
      }
    },
    after(position, limit) {
      if (floor === undefined || position < floor || position >= newest()!) return undefined;
      // The first item past `position`, by bisection: positions grow along the list.
      let low = 0;
      let high = items.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (items[middle]!.position <= position) low = middle + 1;
        else high = middle;
      }
      return items.slice(low, low + limit);
    },
  };
}

/**
 * `read`, asked once for all who ask it the same position at the same time: the
 * clients a restart sent back together, with one Last-Event-ID, share one query.
 */
export function sharedReads<Item>(read: (after: bigint) => Promise<readonly Item[]>): (after: bigint) => Promise<readonly Item[]> {
  const reading = new Map<bigint, Promise<readonly Item[]>>();
  return (after) => {
    let page = reading.get(after);
    if (!page) {
      page = read(after).finally(() => reading.delete(after));
      reading.set(after, page);
    }
    return page;
  };
}
