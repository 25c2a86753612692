// What can go wrong adding or removing a passkey, said as the Account page shows it.

/** The browser's answer did not make a passkey the app accepts: an expired or used challenge, another origin, no user verification. */
export class PasskeyRefusedError extends Error {
  override name = "PasskeyRefusedError";
}

/** No passkey of the signed-in person has this id (removed already, or someone else's). */
export class PasskeyNotFoundError extends Error {
  override name = "PasskeyNotFoundError";

  constructor() {
    super("that passkey is not one of yours, or is already removed");
  }
}
