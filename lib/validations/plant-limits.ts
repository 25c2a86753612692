// A plant's limits, apart from its schema (lib/validations/plant.ts), which
// enforces them: a page that only shows them ("up to 200 characters") does
// not load zod with its first script (issue 20).

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export const PLANT_NAME_MAX = 200;
export const PLANT_TAG_MAX = 50;
