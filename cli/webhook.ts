// npm run --silent webhook -- <create|list|edit|disable|enable|rotate|delete>: the
// operator's webhook endpoint CLI (issue 9). Works against the configured
// database whether or not the app is running. Secrets go to stdout alone, so
// `secret=$(npm run --silent webhook -- create ...)` captures just the secret.
import { parseCommandLine } from "@/cli/parse-command-line";
import { runCli, UsageError } from "@/cli/run-cli";
import { runCommand } from "@/cli/run-command";
import { writeList } from "@/cli/write-table";
import { requireSharedSecrets } from "@/lib/server/env";
import { cliAttribution } from "@/lib/activity/cli-attribution";
import { newWebhookEndpointSchema, WEBHOOK_EVENT_TYPES } from "@/lib/validations/webhook";
import { DISABLED_WITH_CLI_REASON } from "@/lib/webhooks/disabled-reason";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  editWebhookEndpoint,
  enableWebhookEndpoint,
  findWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookEndpointSecret,
  type WebhookEndpointInfo,
} from "@/lib/webhooks/endpoints";

const USAGE = `usage:
  webhook create --url <url> --event <type> [--event <type> ...] [--description <text>]
      prints only the new whsec_ secret on stdout (shown this once), the endpoint's id on stderr;
      events: ${WEBHOOK_EVENT_TYPES.join(", ")}
  webhook list [--json]
  webhook edit <id> [--url <url>] [--event <type> ...] [--description <text>]
      changes what is given and keeps the rest; --event replaces the events
  webhook disable <id>
  webhook enable <id>
  webhook rotate <id>
      prints only the new secret; the previous one keeps signing beside it for 24 hours
  webhook delete <id>
      deletes the endpoint and its deliveries`;

const COMMANDS = { create, list, edit, disable, enable, rotate, delete: remove };

const ENDPOINT_OPTIONS = {
  url: { type: "string" },
  event: { type: "string", multiple: true },
  description: { type: "string" },
} as const;

/** The events of --event, each given alone, space- or comma-separated. */
const eventsOf = (given: string[] | undefined) => (given ?? []).flatMap((event) => event.split(/[\s,]+/)).filter(Boolean);

async function create(args: string[]): Promise<void> {
  const { values } = parseCommandLine(args, ENDPOINT_OPTIONS);
  if (values.url === undefined) throw new UsageError("--url <url> is required");
  const events = eventsOf(values.event);
  if (events.length === 0) throw new UsageError(`--event is required (${WEBHOOK_EVENT_TYPES.join(", ")})`);
  const parsed = newWebhookEndpointSchema.safeParse({ url: values.url, events, description: values.description });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => issue.message).join("; "));
  // A refused URL (lib/webhooks/target-address.ts) is not a usage mistake: exit 1 with its reason.
  const { endpoint, secret } = await createWebhookEndpoint(parsed.data, cliAttribution());
  process.stdout.write(`${secret}\n`);
  process.stderr.write(`created webhook endpoint ${endpoint.id} for ${endpoint.url} (${endpoint.events.join(" ")}); the secret above is shown only this once\n`);
}

async function edit(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(args, ENDPOINT_OPTIONS, true);
  const [id] = positionals;
  if (!id || positionals.length > 1) throw new UsageError("edit takes exactly one endpoint id (see webhook list)");
  if (values.url === undefined && values.event === undefined && values.description === undefined) throw new UsageError("give --url, --event or --description to change");
  const current = await findWebhookEndpoint(id);
  if (!current) throw noSuchEndpoint(id);
  const events = values.event === undefined ? current.events : eventsOf(values.event);
  const parsed = newWebhookEndpointSchema.safeParse({ url: values.url ?? current.url, events, description: values.description ?? current.description });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => issue.message).join("; "));
  if (!(await editWebhookEndpoint(id, parsed.data, cliAttribution()))) throw noSuchEndpoint(id);
  process.stderr.write(`webhook endpoint ${id} now sends ${parsed.data.events.join(" ")} to ${parsed.data.url}\n`);
}

async function list(args: string[]): Promise<void> {
  const { values } = parseCommandLine(args, { json: { type: "boolean", default: false } });
  const endpoints = await listWebhookEndpoints();
  const rows = endpoints.map((endpoint) => [endpoint.id, endpoint.url, endpoint.events.join(" "), status(endpoint), endpoint.failingSince?.toISOString() ?? "-", endpoint.createdAt.toISOString()]);
  // --json: the endpoints as the app shows them (WebhookEndpointInfo, which holds no secret), dates in ISO 8601.
  writeList({ asJson: values.json, json: endpoints, table: [["ID", "URL", "EVENTS", "STATUS", "FAILING SINCE", "CREATED"], ...rows], none: "no webhook endpoints" });
}

function status(endpoint: WebhookEndpointInfo): string {
  if (endpoint.enabled) return "enabled";
  const since = endpoint.disabledAt ? ` since ${endpoint.disabledAt.toISOString()}` : "";
  return `disabled (${endpoint.disabledReason ?? "no reason recorded"})${since}`;
}

async function disable(args: string[]): Promise<void> {
  const id = oneId("disable", args);
  if (!(await disableWebhookEndpoint(id, DISABLED_WITH_CLI_REASON, cliAttribution()))) throw noSuchEndpoint(id);
  process.stderr.write(`disabled webhook endpoint ${id}: nothing is sent to it until it is enabled\n`);
}

async function enable(args: string[]): Promise<void> {
  const id = oneId("enable", args);
  if (!(await enableWebhookEndpoint(id, cliAttribution()))) throw noSuchEndpoint(id);
  process.stderr.write(`enabled webhook endpoint ${id}: new events are sent to it again\n`);
}

async function rotate(args: string[]): Promise<void> {
  const id = oneId("rotate", args);
  const secret = await rotateWebhookEndpointSecret(id, cliAttribution());
  if (secret === null) throw noSuchEndpoint(id);
  const until = (await findWebhookEndpoint(id))?.previousSecretExpiresAt;
  process.stdout.write(`${secret}\n`);
  process.stderr.write(
    `rotated the secret of webhook endpoint ${id}; the new secret above is shown only this once. ` +
      `The previous secret keeps signing beside it for 24 hours${until ? ` (until ${until.toISOString()})` : ""}, so receivers can switch over\n`,
  );
}

async function remove(args: string[]): Promise<void> {
  const id = oneId("delete", args);
  if (!(await deleteWebhookEndpoint(id, cliAttribution()))) throw noSuchEndpoint(id);
  process.stderr.write(`deleted webhook endpoint ${id} and its deliveries\n`);
}

function oneId(command: string, args: string[]): string {
  const { positionals } = parseCommandLine(args, {}, true);
  const [id] = positionals;
  if (!id || positionals.length > 1) throw new UsageError(`${command} takes exactly one endpoint id (see webhook list)`);
  return id;
}

function noSuchEndpoint(id: string): Error {
  return new Error(`no webhook endpoint with id ${id}`);
}

// A new secret is sealed with NEXTAUTH_SECRET; the other commands use none.
const requires = (command: string) => (command === "create" || command === "rotate" ? requireSharedSecrets(["NEXTAUTH_SECRET"]) : undefined);

runCli("webhook", USAGE, () => runCommand(process.argv.slice(2), COMMANDS, requires));
