import { type PlantVersion, plantVersionTag } from "@/lib/plants/plant-version";

// What can go wrong with plants, in the data layer's own terms. The HTTP
// layer maps each to its answer (lib/http/error-response.ts).

/** The id is taken by a plant with another name or tag. */
export class PlantConflictError extends Error {
  override name = "PlantConflictError";

  constructor(readonly id: bigint) {
    super(`a plant with id ${id} already exists with different data`);
  }
}

export class PlantNotFoundError extends Error {
  override name = "PlantNotFoundError";

  constructor(readonly id: bigint) {
    super(`no plant has id ${id}`);
  }
}

/** A conditional change named versions of the plant of which none is the current one: someone changed it meanwhile. */
export class PlantVersionMismatchError extends Error {
  override name = "PlantVersionMismatchError";

  constructor(
    readonly id: bigint,
    readonly current: PlantVersion,
  ) {
    super(`plant ${id} has changed since the version named: it is now at "${plantVersionTag(current)}"; nothing was changed`);
  }
}
