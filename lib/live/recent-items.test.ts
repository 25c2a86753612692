import { describe, expect, it } from "vitest";
import { recentItems, sharedReads } from "@/lib/live/recent-items";

// What a feed keeps of the newest items it read, and answers streams from:
// exactly the table's answer where it can give it, and nothing where it cannot.

const item = (position: number) => ({ position: BigInt(position) });
const positions = (items: readonly { position: bigint }[] | undefined) => items?.map((each) => Number(each.position));

describe("recentItems", () => {
  it("answers a page after any position from its floor on, gaps in the positions included, and leaves older and newer ones to the database", () => {
    const recent = recentItems<{ position: bigint }>(100);
    expect(recent.after(0n, 10)).toBeUndefined();
    // Read as the feed reads: everything after 10, then everything after 14.
    recent.add(10n, [item(11), item(13), item(14)]);
    recent.add(14n, [item(17), item(18)]);
    expect(positions(recent.after(10n, 10))).toEqual([11, 13, 14, 17, 18]);
    expect(positions(recent.after(12n, 2))).toEqual([13, 14]);
    expect(positions(recent.after(14n, 10))).toEqual([17, 18]);
    // Before the floor the kept items may miss some; at the newest, the table may have more.
    expect(recent.after(9n, 10)).toBeUndefined();
    expect(recent.after(18n, 10)).toBeUndefined();
    expect(recent.after(30n, 10)).toBeUndefined();
  });

  it("keeps the newest `capacity` items, and starts again where the feed's reading does not follow on", () => {
    const recent = recentItems<{ position: bigint }>(3);
    recent.add(0n, [item(1), item(2), item(3)]);
    recent.add(3n, [item(4), item(5)]);
    expect(recent.after(1n, 10)).toBeUndefined();
    expect(positions(recent.after(2n, 10))).toEqual([3, 4, 5]);
    recent.add(40n, [item(41)]);
    expect(recent.after(4n, 10)).toBeUndefined();
    expect(positions(recent.after(40n, 10))).toEqual([41]);
  });
});

describe("sharedReads", () => {
  it("reads a position once for all who ask for it while it is read, and again once that read is done", async () => {
    const asked: bigint[] = [];
    const read = sharedReads(async (after: bigint) => {
      asked.push(after);
      return [after + 1n];
    });
    const [a, b, c] = await Promise.all([read(5n), read(5n), read(7n)]);
    expect([a, b, c]).toEqual([[6n], [6n], [8n]]);
    expect(asked).toEqual([5n, 7n]);
    await read(5n);
    expect(asked).toEqual([5n, 7n, 5n]);
  });
});
