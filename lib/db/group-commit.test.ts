import { describe, expect, it } from "vitest";
import { groupCommit } from "@/lib/db/group-commit";

// The queue alone, with a recording writer in place of the database.

function recordingWriter(decide: (input: number) => PromiseSettledResult<string> = (input) => ({ status: "fulfilled", value: `stored ${input}` })) {
  const batches: number[][] = [];
  const write = async (inputs: number[]) => {
    batches.push(inputs);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return inputs.map(decide);
  };
  return { batches, write };
}

describe("groupCommit", () => {
  it("writes the calls of one turn of the event loop as one batch, in order, each hearing its own outcome", async () => {
    const { batches, write } = recordingWriter((input) => (input % 2 ? { status: "fulfilled", value: `stored ${input}` } : { status: "rejected", reason: new Error(`refused ${input}`) }));
    const add = groupCommit(write, 100);
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map(add));
    expect(batches).toEqual([[1, 2, 3, 4]]);
    expect(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : (outcome.reason as Error).message))).toEqual([
      "stored 1",
      "refused 2",
      "stored 3",
      "refused 4",
    ]);
  });

  it("splits a burst into batches of at most maxBatch", async () => {
    const { batches, write } = recordingWriter();
    const add = groupCommit(write, 3);
    expect(await Promise.all([1, 2, 3, 4, 5, 6, 7].map(add))).toHaveLength(7);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5, 6],
      [7],
    ]);
  });

  it("starts a new batch for calls made while one is being written", async () => {
    const { batches, write } = recordingWriter();
    const add = groupCommit(write, 100);
    const first = Promise.all([add(1), add(2)]);
    await new Promise((resolve) => setTimeout(resolve, 1));
    await Promise.all([add(3), first]);
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it("one at a time: calls made while a batch is written wait, and go together as the next batch", async () => {
    const { batches, write } = recordingWriter();
    let writing = 0;
    let most = 0;
    const add = groupCommit(
      async (inputs: number[]) => {
        most = Math.max(most, ++writing);
        try {
          return await write(inputs);
        } finally {
          writing--;
        }
      },
      100,
      { oneAtATime: () => true },
    );
    const first = add(1);
    await new Promise((resolve) => setTimeout(resolve, 1));
    const later = [add(2)];
    await new Promise((resolve) => setImmediate(resolve));
    later.push(add(3), add(4));
    expect(await Promise.all([first, ...later])).toEqual(["stored 1", "stored 2", "stored 3", "stored 4"]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(most).toBe(1);
  });

  it("fails every call of a batch whose write throws, and goes on with the next", async () => {
    let fail = true;
    const add = groupCommit(async (inputs: number[]) => {
      if (fail) throw new Error("disk full");
      return inputs.map((input): PromiseSettledResult<number> => ({ status: "fulfilled", value: input }));
    }, 100);
    const outcomes = await Promise.allSettled([add(1), add(2)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await add(3)).toBe(3);
  });
});
