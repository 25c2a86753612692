import { generateKeyPairSync, type JsonWebKey, type KeyObject, randomBytes, sign } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type ProviderContext } from "oidc-provider";

// A real OpenID Connect provider inside the test process (panva's oidc-provider),
// on 127.0.0.1: the app discovers it through OIDC_ISSUER and signs in with it as
// it would with the store's identity provider. There is no login page: the
// interaction finishes itself as the identity the test chose, so a browser and a
// test following redirects by hand both land on the app's redirect URI with a
// code. The test can also make the token endpoint answer a tampered ID token,
// and take the provider down.

export type TestIdentity = { sub: string; email: string; email_verified: boolean; name?: string; amr?: string[] };

export type IdTokenChange = {
  /** The ID token's claims as the provider issued them, in; the claims to sign instead, out. */
  claims?: (claims: Record<string, unknown>) => Record<string, unknown>;
  /** Signs with a second key the provider never published (under the published key's kid, so only the signature is wrong). */
  otherKey?: boolean;
};

export type OidcTestProvider = {
  /** http://127.0.0.1:<port>, for OIDC_ISSUER. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The identity the next authorizations sign in as; a later call with the same sub changes that identity's claims. */
  signInAs(identity: TestIdentity): void;
  /** The ID token the token endpoint answers from now on is changed and re-signed; undefined answers them as issued again. */
  tamperIdToken(change: IdTokenChange | undefined): void;
  /** While true, every request (discovery included) has its connection destroyed, as a provider that is down. */
  down: boolean;
  close(): Promise<void>;
};

export type OidcTestProviderOptions = { redirectUris: string[] };

// What an authorization is granted: the scopes a store's app asks for.
const GRANTED_SCOPE = "openid email profile";
const INTERACTION_PATH = "/interaction/";

export async function startOidcProvider(options: OidcTestProviderOptions): Promise<OidcTestProvider> {
  const signingKey = rsaKey();
  const unpublishedKey = rsaKey();
  const identities = new Map<string, TestIdentity>();
  let current: TestIdentity | undefined;
  let tampering: IdTokenChange | undefined;

  const server = createServer((req, res) => {
    if (state.down) {
      req.socket.destroy();
      return;
    }
    if (req.url?.startsWith(INTERACTION_PATH)) {
      finishInteraction(req, res).catch((error: unknown) => answerFailure(res, error));
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "plant-store";
  const clientSecret = randomBytes(32).toString("base64url");

  const provider = quietly(() =>
    new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: options.redirectUris,
          response_types: ["code"],
          grant_types: ["authorization_code"],
          // oidc-provider 9 takes the secret in the body too (client_secret_post) from a client registered for basic.
          token_endpoint_auth_method: "client_secret_basic",
          id_token_signed_response_alg: "RS256",
        },
      ],
      jwks: { keys: [signingKey.jwk] },
      cookies: { keys: [randomBytes(32).toString("base64url")] },
      // The email and profile claims in the ID token itself, which is all next-auth reads (no userinfo
      // call); amr (how the user signed in, from the login) in every one; the rest as oidc-provider's defaults.
      claims: { openid: ["sub", "amr"], email: ["email", "email_verified"], profile: ["name"], acr: null, auth_time: null, sid: null, iss: null },
      scopes: ["openid", "email", "profile"],
      conformIdTokenClaims: false,
      // PKCE on every authorization, as OAuth 2.1 and the OpenID security BCP ask of confidential clients too.
      pkce: { required: () => true },
      clientAuthMethods: ["client_secret_basic", "client_secret_post"],
      features: { devInteractions: { enabled: false } },
      // Numbers instead of the default functions, which print a notice when first called.
      ttl: { AccessToken: 3600, AuthorizationCode: 600, IdToken: 3600, Interaction: 3600, Session: 3600, Grant: 3600 },
      interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}` },
      findAccount: async (_ctx, sub) => {
        const identity = identities.get(sub);
        if (!identity) return undefined;
        return {
          accountId: sub,
          claims: () => ({ sub, email: identity.email, email_verified: identity.email_verified, ...(identity.name === undefined ? {} : { name: identity.name }) }),
        };
      },
      // The app calls the provider server to server; no browser script does.
      clientBasedCORS: () => false,
      renderError: (ctx, out) => {
        ctx.body = Object.entries(out).map(([key, value]) => `${key}: ${value}`).join("\n");
      },
    }),
  );

  provider.use(async (ctx, next) => {
    await next();
    forgetSignIn(ctx);
    if (tampering && ctx.method === "POST" && ctx.path === "/token" && ctx.status === 200) tamper(ctx, tampering);
  });
  const handle = provider.callback();

  // oidc-provider would remember the sign-in in a session cookie, and a browser
  // coming back as another identity would meet its "sign out first?" page: each
  // authorization signs in afresh instead, as on a browser new to the provider.
  function forgetSignIn(ctx: ProviderContext) {
    const setCookie = ctx.response.get("set-cookie");
    if (!Array.isArray(setCookie)) return;
    ctx.response.set("set-cookie", setCookie.filter((cookie) => !/^_session(\.legacy)?(\.sig)?=/.test(cookie)));
  }

  function tamper(ctx: ProviderContext, change: IdTokenChange) {
    const body = ctx.body as Record<string, unknown>;
    if (typeof body.id_token !== "string") return;
    const [header, payload] = body.id_token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
    const protectedHeader = JSON.parse(Buffer.from(header!, "base64url").toString()) as Record<string, unknown>;
    const key = change.otherKey ? unpublishedKey : signingKey;
    ctx.body = { ...body, id_token: signJwt(protectedHeader, change.claims ? change.claims(claims) : claims, key.privateKey) };
  }

  // The login and consent a provider would ask for, answered at once as `current`.
  async function finishInteraction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (!current) throw new Error("the OIDC test provider was asked to sign in before signInAs() named an identity");
    const grant = new provider.Grant({ accountId: current.sub, clientId: details.params.client_id });
    grant.addOIDCScope(GRANTED_SCOPE);
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: current.sub, remember: false, ...(current.amr ? { amr: current.amr } : {}) }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  const state: OidcTestProvider = {
    issuer,
    clientId,
    clientSecret,
    signInAs(identity) {
      identities.set(identity.sub, identity);
      current = identity;
    },
    tamperIdToken(change) {
      tampering = change;
    },
    down: false,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return state;
}

type SigningKey = { jwk: JsonWebKey; privateKey: KeyObject };

function rsaKey(): SigningKey {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = randomBytes(8).toString("hex");
  return { privateKey, jwk: { ...privateKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" } };
}

/** A compact JWS, RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 section 3.3). */
function signJwt(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject): string {
  const signingInput = `${Buffer.from(JSON.stringify({ ...header, alg: "RS256" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${signingInput}.${sign("sha256", Buffer.from(signingInput), key).toString("base64url")}`;
}

function answerFailure(res: ServerResponse, error: unknown) {
  if (res.headersSent) return res.destroy();
  res.writeHead(500, { "content-type": "text/plain" }).end(`OIDC test provider: ${error instanceof Error ? error.message : String(error)}`);
}

// oidc-provider warns when it starts that its in-memory store is for development:
// true, and what a test provider is. Only its own lines are dropped, and only
// while it starts. (Its warning on import, that Node 20 is below the LTS it asks
// for, goes to stderr once.)
function quietly<T>(start: () => T): T {
  const { info, warn } = console;
  const unlessOidcProvider =
    (write: (...data: unknown[]) => void) =>
    (...data: unknown[]) => {
      if (typeof data[0] === "string" && data[0].startsWith("oidc-provider ")) return;
      write(...data);
    };
  console.info = unlessOidcProvider(info);
  console.warn = unlessOidcProvider(warn);
  try {
    return start();
  } finally {
    console.info = info;
    console.warn = warn;
  }
}
