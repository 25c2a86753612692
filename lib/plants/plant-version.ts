// Which version of a plant a client holds. The API sends it as the strong
// ETag of every answer that carries one plant, and a conditional change
// (If-Match) names it.

/** What tells one stored state of a plant from another. */
export type PlantVersion = {
  /** 1 when created, one more at each change (plants.version). */
  version: number;
  /** When this plant was created (plants.created_at), to the millisecond. */
  createdAt: Date;
};

/**
 * The version as one opaque text: `<version>.<created_at in ms, base 36>`,
 * e.g. `3.mhs1wq9c`. The version alone is not enough: a deleted plant's id
 * may be taken by a new plant, which starts again at version 1, and a
 * client holding the old plant's tag must not change the new one. The
 * creation time tells the two apart (the second is created after the first
 * was deleted, hence in a later millisecond, unless the clock went back
 * meanwhile to that very millisecond). Both parts are integers, so the text
 * needs no escaping inside an entity-tag's quotes.
 */
export function plantVersionTag({ version, createdAt }: PlantVersion): string {
  return `${version}.${createdAt.getTime().toString(36)}`;
}
