// oidc-provider ships no types (DefinitelyTyped's stop at 8.x); this declares the parts
// test/support/oidc-test-provider.ts uses, as 9.13's lib/provider.js and defaults.js have them.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** The Koa context a middleware sees (provider.use), only what we read or change. */
  export type ProviderContext = {
    method: string;
    path: string;
    status: number;
    body: unknown;
    response: { get(field: string): string | string[] | undefined; set(field: string, value: string | string[]): void };
  };

  export type Account = {
    accountId: string;
    claims(use: "id_token" | "userinfo", scope: string): Record<string, unknown> | Promise<Record<string, unknown>>;
  };

  export type ClientMetadata = {
    client_id: string;
    client_secret: string;
    redirect_uris: string[];
    response_types: string[];
    grant_types: string[];
    token_endpoint_auth_method: "client_secret_basic" | "client_secret_post";
    id_token_signed_response_alg?: string;
  };

  export type Configuration = {
    clients: ClientMetadata[];
    jwks: { keys: Record<string, unknown>[] };
    cookies: { keys: string[] };
    claims: Record<string, string[] | null>;
    scopes: string[];
    conformIdTokenClaims: boolean;
    pkce: { required: () => boolean };
    clientAuthMethods: string[];
    features: Record<string, { enabled: boolean }>;
    ttl: Record<string, number>;
    interactions: { url: (ctx: unknown, interaction: { uid: string }) => string };
    findAccount: (ctx: unknown, sub: string) => Promise<Account | undefined>;
    clientBasedCORS: () => boolean;
    renderError: (ctx: ProviderContext, out: Record<string, string>, error: Error) => void;
  };

  export type LoginResult = { accountId: string; amr?: string[]; remember?: boolean };

  export type InteractionDetails = {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id: string; scope?: string };
    session?: { accountId: string };
    grantId?: string;
  };

  export type Grant = {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  };

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    readonly issuer: string;
    Grant: new (properties: { accountId: string; clientId: string }) => Grant;
    use(middleware: (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>): this;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: { login?: LoginResult; consent?: { grantId: string } },
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
