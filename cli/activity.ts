// npm run --silent activity -- list [--since 7d] [--person EMAIL] [--plant ID] [--action KIND] [--json]:
// the operator's view of the activity record (issue 22), newest first, the
// same records and filters as the owners' Activity page. Works against the
// configured database whether or not the app is running.
import ms from "ms";
import { parseCommandLine } from "@/cli/parse-command-line";
import { runCli, UsageError } from "@/cli/run-cli";
import { activityPeople } from "@/lib/activity/activity-people";
import { activityPages, activitySearchSchema, type ActivitySearch } from "@/lib/activity/activity-search";
import { actorText, changesText, describeSubject, nameActor } from "@/lib/activity/describe";
import type { ActivityEntry } from "@/lib/activity/history";
import { findUserIdByEmail } from "@/lib/auth/accounts/users";
import { migrate } from "@/lib/db/migrate";
import { stringifyExactJson } from "@/lib/json/exact-json";
import { env } from "@/lib/server/env";

const USAGE = `usage:
  activity list [--since <duration>] [--person <email>] [--plant <id>] [--action <kind>] [--json]
      newest first; --since takes 30m, 12h, 7d ...; --person names an account by its email
      (their own changes and their API tokens'); --action takes a kind (plant.deleted) or a
      family (plant.*); --json prints one JSON array, one record a line, ids exact`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== "list") throw new UsageError(command ? `unknown command ${command}` : "a command is required");
  const { values } = parseCommandLine(rest, {
    since: { type: "string" },
    person: { type: "string" },
    plant: { type: "string" },
    action: { type: "string" },
    json: { type: "boolean", default: false },
  });
  await migrate(env().database);
  const search = await searchOf(values);
  if (values.json) await printJson(search);
  else await printLines(search, (await activityPeople()).names);
}

/** The flags as the Activity page's filters, checked by the same schema; a mistake is a usage error (exit 2). */
async function searchOf(values: { since?: string; person?: string; plant?: string; action?: string }): Promise<ActivitySearch> {
  const from = values.since === undefined ? undefined : new Date(Date.now() - duration(values.since)).toISOString();
  let person: string | undefined;
  if (values.person !== undefined) {
    person = (await findUserIdByEmail(values.person)) ?? undefined;
    if (person === undefined) throw new UsageError(`no account has the email ${values.person} (see user list)`);
  }
  const parsed = activitySearchSchema.safeParse({ person, plant: values.plant, action: values.action, from });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `--${issue.message}`).join("; "));
  return parsed.data;
}

// A duration with its unit: "7" alone would be 7 ms to the ms package, which nobody means.
const DURATION = /^\d+(\.\d+)?\s*[a-z]+$/i;

function duration(text: string): number {
  const length = DURATION.test(text.trim()) ? (ms(text as ms.StringValue) as number | undefined) : undefined;
  if (length === undefined || !(length > 0)) throw new UsageError(`--since ${text} is not a duration (e.g. 30m, 12h, 7d)`);
  return length;
}

/** One line per record, tab-separated: id, when (UTC), kind, who, what it is about, what changed. */
async function printLines(search: ActivitySearch, names: ReadonlyMap<string, string>): Promise<void> {
  let any = false;
  for await (const entries of activityPages(search)) {
    if (!any) process.stdout.write("ID\tAT\tACTION\tBY\tSUBJECT\tCHANGES\n");
    any = true;
    let text = "";
    for (const entry of entries) {
      const cells = [String(entry.id), entry.occurredAt.toISOString(), entry.action, actorText(nameActor(entry.actor, names)), describeSubject(entry, names), changesText(entry)];
      text += `${cells.map(oneLine).join("\t")}\n`;
    }
    process.stdout.write(text);
  }
  if (!any) process.stdout.write("no activity records\n");
}

// A cell never breaks its line or its columns.
function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, " ");
}

/** One JSON array, a record to a line, so that a large record streams and each line is still one record; ids are exact integers. */
async function printJson(search: ActivitySearch): Promise<void> {
  let separator = "[\n";
  for await (const entries of activityPages(search)) {
    let text = "";
    for (const entry of entries) {
      text += separator + stringifyExactJson(describe(entry));
      separator = ",\n";
    }
    process.stdout.write(text);
  }
  process.stdout.write(separator === "[\n" ? "[]\n" : "\n]\n");
}

function describe(entry: ActivityEntry) {
  const { before, after, restoredFrom } = entry.changes;
  return {
    id: entry.id,
    at: entry.occurredAt.toISOString(),
    action: entry.action,
    by: { kind: entry.actor.kind, name: entry.actor.name, userId: entry.actor.userId, tokenId: entry.actor.tokenId },
    origin: entry.origin,
    subject: { kind: entry.subjectKind, id: entry.subjectId },
    ...(before && { before }),
    ...(after && { after }),
    ...(restoredFrom !== undefined && { restoredFrom }),
  };
}

runCli("activity", USAGE, () => main(process.argv.slice(2)));
