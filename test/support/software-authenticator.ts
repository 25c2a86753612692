import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

// A passkey in the test process: a P-256 key whose public half is kept as the
// server keeps a registered passkey (COSE, base64url), and assertions signed
// as an authenticator signs them (WebAuthn §6.1, §7.2): authenticator data with
// the relying party id's hash, the user present and verified flags and a
// signature counter, over the client data's hash. Only ES256, and no CBOR but
// the COSE key's, through SimpleWebAuthn's own encoder.

export type SoftwarePasskey = { id: string; publicKey: string; privateKey: KeyObject; userHandle: string };

export function makeSoftwarePasskey(userId: string): SoftwarePasskey {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const cose = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
    [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
  ]);
  return {
    id: createHash("sha256").update(`${userId}:${Math.random()}`).digest("base64url"),
    publicKey: Buffer.from(isoCBOR.encode(cose)).toString("base64url"),
    privateKey,
    userHandle: Buffer.from(userId, "utf8").toString("base64url"),
  };
}

/** An AuthenticationResponseJSON for `challenge`, as a browser at `origin` would send it. */
export function signAssertion(passkey: SoftwarePasskey, options: { rpId: string; origin: string; challenge: string; counter: number; userVerified?: boolean; userHandle?: string }) {
  const flags = 0x01 | (options.userVerified === false ? 0 : 0x04);
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(options.counter);
  const authenticatorData = Buffer.concat([createHash("sha256").update(options.rpId).digest(), Buffer.from([flags]), counter]);
  const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin: options.origin, crossOrigin: false }));
  const signature = sign("sha256", Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]), passkey.privateKey);
  return {
    id: passkey.id,
    rawId: passkey.id,
    type: "public-key" as const,
    response: {
      clientDataJSON: clientDataJSON.toString("base64url"),
      authenticatorData: authenticatorData.toString("base64url"),
      signature: signature.toString("base64url"),
      userHandle: options.userHandle ?? passkey.userHandle,
    },
    clientExtensionResults: {},
  };
}

/** A RegistrationResponseJSON ("none" attestation) for `challenge` that makes `passkey`, as a browser at `origin` would send it. */
export function signRegistration(passkey: SoftwarePasskey, options: { rpId: string; origin: string; challenge: string; userVerified?: boolean }) {
  const flags = 0x01 | (options.userVerified === false ? 0 : 0x04) | 0x40; // UP, UV, AT (attested credential data)
  const credentialId = Buffer.from(passkey.id, "base64url");
  const length = Buffer.alloc(2);
  length.writeUInt16BE(credentialId.length);
  const authenticatorData = Buffer.concat([
    createHash("sha256").update(options.rpId).digest(),
    Buffer.from([flags]),
    Buffer.alloc(4), // counter 0
    Buffer.alloc(16), // AAGUID: none
    length,
    credentialId,
    Buffer.from(passkey.publicKey, "base64url"),
  ]);
  const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", new Uint8Array(authenticatorData)]]) as never);
  const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin: options.origin, crossOrigin: false }));
  return {
    id: passkey.id,
    rawId: passkey.id,
    type: "public-key" as const,
    response: { clientDataJSON: clientDataJSON.toString("base64url"), attestationObject: Buffer.from(attestationObject).toString("base64url"), transports: ["internal"] },
    clientExtensionResults: {},
  };
}
