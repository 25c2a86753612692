import Link from "next/link";
import { CardTable, type CardTableColumn } from "@/components/card-table";
import { LocalTime } from "@/components/local-time";
import { RestorePlantButton } from "@/components/restore-plant-button";

/** Who made a change, as the page names them (lib/activity/activity-words.ts makes it). */
export type ActivityWho =
  | { kind: "person"; name: string; userId: string | null }
  | { kind: "token"; label: string; person: { userId: string; name: string } | null }
  | { kind: "app" }
  | { kind: "cli"; osUser: string | null };

/** One record as the page shows it: everything in words already, ids as their exact decimal text. */
export type ActivityRow = {
  id: string;
  at: Date;
  who: ActivityWho;
  /** The client's address, when the change came over HTTP. */
  from: string | null;
  /** What was done, as a sentence's start: "Deleted a plant". */
  what: string;
  subject: { text: string; href?: string };
  /** The fields the record names; `kept`: a deleted subject's, as it was. */
  changes: { field: string; before?: string; after?: string }[];
  kept: boolean;
  restoredFrom?: string;
  /** A deleted plant's: whether its id is free, so that it can be restored now. */
  restore?: { plantId: string; name: string; restorable: boolean };
};

/**
 * The records of one page, newest first: a table where there is room, a card
 * per record where there is not (CardTable). A person links to their own
 * activity (`personHref`), a plant to its page.
 */
export function ActivityTable({ rows, caption, personHref }: { rows: ActivityRow[]; caption: string; personHref: Record<string, string> }) {
  const columns: CardTableColumn<ActivityRow>[] = [
    // Names and addresses break between words, so a column is never narrower than a plant's id or an address.
    { header: "Who", cell: (row) => <Who who={row.who} from={row.from} personHref={personHref} /> },
    { header: "What", cell: (row) => row.what },
    {
      header: "Subject",
      cell: ({ subject }) =>
        subject.href ? (
          <Link href={subject.href} prefetch={false}>
            {subject.text}
          </Link>
        ) : (
          subject.text
        ),
    },
    { header: "Changes", cell: (row) => <Changes row={row} />, breakAnywhere: true },
  ];
  return (
    <CardTable
      caption={caption}
      rowHeader={{ header: "When", cell: (row) => <LocalTime date={row.at} /> }}
      columns={columns}
      rows={rows}
      rowKey={(row) => row.id}
    />
  );
}

function Who({ who, from, personHref }: { who: ActivityWho; from: string | null; personHref: Record<string, string> }) {
  const person = (userId: string | null, name: string) => {
    const href = userId === null ? undefined : personHref[userId];
    return href ? (
      <Link href={href} prefetch={false}>
        {name}
      </Link>
    ) : (
      name
    );
  };
  return (
    <>
      {who.kind === "person" && person(who.userId, who.name)}
      {who.kind === "token" && (
        <>
          API token “{who.label}”{who.person ? <> of {person(who.person.userId, who.person.name)}</> : " (made with the CLI)"}
        </>
      )}
      {who.kind === "app" && "The app"}
      {who.kind === "cli" && (who.osUser === null ? "The CLI" : `The CLI (${who.osUser})`)}
      {from && <span className="activity-from">from {from}</span>}
    </>
  );
}

function Changes({ row }: { row: ActivityRow }) {
  const { changes, kept, restoredFrom, restore } = row;
  return (
    <>
      {kept && changes.length > 0 && <span className="activity-kept">As it was:</span>}
      {changes.length > 0 && (
        <ul className="activity-changes">
          {changes.map(({ field, before, after }) => (
            <li key={field}>
              <span className="activity-field">{field}</span>:{" "}
              {before !== undefined && after !== undefined ? (
                <>
                  {before} <span aria-hidden="true">→</span>
                  <span className="visually-hidden">changed to</span> {after}
                </>
              ) : (
                (after ?? before)
              )}
            </li>
          ))}
        </ul>
      )}
      {restoredFrom && <span className="activity-kept">Restored from record {restoredFrom}.</span>}
      {restore && <RestorePlantButton recordId={row.id} plantId={restore.plantId} name={restore.name} restorable={restore.restorable} />}
    </>
  );
}
