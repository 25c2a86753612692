// npm run --silent token -- <create|list|revoke>: the operator's API token CLI.
// Works against the configured database whether or not the app is running.
import { parseArgs } from "node:util";
import ms from "ms";
import { runCli, UsageError } from "@/cli/run-cli";
import { runCommand } from "@/cli/run-command";
import { writeList } from "@/cli/write-table";
import { requireSharedSecrets } from "@/lib/server/env";
import { cliAttribution } from "@/lib/activity/cli-attribution";
import { type ApiTokenInfo, createApiToken, listApiTokens, revokeApiToken, tokenStatus } from "@/lib/auth/api-tokens/api-tokens";
import { isScope, MAX_TOKEN_LIFETIME_SECONDS, SCOPES } from "@/lib/validations/api-token";

const USAGE = `usage:
  token create --name <label> [--scope plants:read|plants:write ...] [--expires 30d]
      prints only the new token on stdout; --scope repeats, default plants:read;
      --expires takes 90m, 12h, 30d, 1y ... (at most 366d), default 30d
  token list [--json]
  token revoke <id>`;

const COMMANDS = { create, list, revoke };

async function create(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: "string" },
      scope: { type: "string", multiple: true },
      expires: { type: "string", default: "30d" },
    },
  });
  const label = values.name?.trim();
  if (!label) throw new UsageError("--name <label> is required");
  const scopes = (values.scope ?? ["plants:read"]).flatMap((scope) => scope.split(/[\s,]+/)).filter(Boolean);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length) throw new UsageError(`unknown scope ${unknown.join(", ")}; scopes are ${SCOPES.join(", ")}`);
  const lifetimeMs = ms(values.expires as ms.StringValue) as number | undefined;
  if (lifetimeMs === undefined || !(lifetimeMs >= 1000) || lifetimeMs / 1000 > MAX_TOKEN_LIFETIME_SECONDS) {
    throw new UsageError(`--expires ${values.expires} is not a duration from 1s to 366d (e.g. 12h, 30d)`);
  }
  const { token, info } = await createApiToken({ label, scopes: scopes.filter(isScope), lifetimeSeconds: Math.floor(lifetimeMs / 1000) }, cliAttribution());
  process.stdout.write(`${token}\n`);
  process.stderr.write(`created token ${info.id} (${info.scopes.join(" ")}), expires ${info.expiresAt.toISOString()}\n`);
}

async function list(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { json: { type: "boolean", default: false } } });
  const tokens = await listApiTokens();
  const rows = tokens.map((token) => [token.id, token.label, token.scopes.join(" "), tokenStatus(token), token.expiresAt.toISOString(), token.lastUsedAt?.toISOString() ?? "never"]);
  writeList({ asJson: values.json, json: tokens.map(describe), table: [["ID", "LABEL", "SCOPES", "STATUS", "EXPIRES", "LAST USED"], ...rows], none: "no tokens" });
}

function describe(token: ApiTokenInfo) {
  return {
    id: token.id,
    label: token.label,
    scopes: token.scopes,
    ownerId: token.ownerId,
    status: tokenStatus(token),
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt.toISOString(),
    revokedAt: token.revokedAt?.toISOString() ?? null,
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
  };
}

async function revoke(args: string[]): Promise<void> {
  const { positionals } = parseArgs({ args, allowPositionals: true });
  const [id] = positionals;
  if (!id || positionals.length > 1) throw new UsageError("revoke takes exactly one token id (see token list)");
  if (!(await revokeApiToken(id, cliAttribution()))) throw new Error(`no token with id ${id}`);
  process.stderr.write(`revoked token ${id}\n`);
}

// A new token is signed with NEXTAUTH_SECRET; listing and revoking use no secret.
const requires = (command: string) => (command === "create" ? requireSharedSecrets(["NEXTAUTH_SECRET"]) : undefined);

runCli("token", USAGE, () => runCommand(process.argv.slice(2), COMMANDS, requires));
