import { describe, expect, it } from "vitest";
import { machineLimits, WORKER_MEMORY_BYTES, workerCount } from "@/lib/server/worker-count";

const GiB = 1024 ** 3;

describe("workerCount", () => {
  it("runs the number it is given, whatever the machine", () => {
    expect(workerCount(1, { cores: 16, memoryBytes: 64 * GiB })).toBe(1);
    expect(workerCount(4, { cores: 2, memoryBytes: 1 * GiB })).toBe(4);
  });

  it("auto: one per core the process may use", () => {
    expect(workerCount("auto", { cores: 2, memoryBytes: 24 * GiB })).toBe(2);
    expect(workerCount("auto", { cores: 16, memoryBytes: 64 * GiB })).toBe(16);
  });

  it("auto: no more than fit in memory, and at least one", () => {
    // A 16-core machine with 2 GiB: four workers of 512 MiB.
    expect(workerCount("auto", { cores: 16, memoryBytes: 2 * GiB })).toBe(4);
    expect(workerCount("auto", { cores: 16, memoryBytes: 2 * GiB - 1 })).toBe(3);
    expect(workerCount("auto", { cores: 8, memoryBytes: 256 * 1024 ** 2 })).toBe(1);
    expect(WORKER_MEMORY_BYTES).toBe(512 * 1024 ** 2);
  });

  it("reads this machine's cores and memory", () => {
    const limits = machineLimits();
    expect(limits.cores).toBeGreaterThanOrEqual(1);
    expect(limits.memoryBytes).toBeGreaterThan(0);
    expect(workerCount("auto", limits)).toBeGreaterThanOrEqual(1);
  });
});
