/** What an attempt that must fail threw, to look into; a test fails if it did not fail. */
export async function failure(attempt: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof attempt === "function" ? attempt() : attempt);
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}
