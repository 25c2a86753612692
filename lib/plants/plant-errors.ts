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
