import { metrics } from "@/lib/server/metrics";

/** The group commit's statements so far in this process, and the plants they wrote (plant_store_group_commit_batch_size). */
export async function groupCommitBatches(): Promise<{ count: number; plants: number }> {
  const histogram = (await metrics().groupCommitBatch.get()).values;
  const value = (name: string) => histogram.find((each) => each.metricName === name)?.value ?? 0;
  return { count: value("plant_store_group_commit_batch_size_count"), plants: value("plant_store_group_commit_batch_size_sum") };
}
