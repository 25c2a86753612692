import Link from "next/link";
import { type ActorShown, ActorName } from "@/components/activity/actor-name";
import { CardTable, type CardTableColumn } from "@/components/shared/card-table";
import { type FieldChangeShown, FieldChanges } from "@/components/activity/field-changes";
import { LocalTime } from "@/components/shared/local-time";
import { RestorePlantButton } from "@/components/plants/restore-plant-button";

/** One record as the Activity page shows it (lib/activity/describe.ts words it): ids as their exact decimal text. */
export type ActivityRow = {
  id: string;
  at: Date;
  who: ActorShown;
  /** The client's address, when the change came over HTTP. */
  from: string | null;
  /** What was done: "Deleted", "Rotated the secret". */
  what: string;
  subject: { text: string; href?: string };
  changes: FieldChangeShown[];
  /** A deleted subject's fields are as it was. */
  kept: boolean;
  restoredFrom?: string;
  /** A deleted plant's: whether its id is free, so that it can be restored now. */
  restore?: { plantId: string; name: string; restorable: boolean };
};

/**
 * The records of one page, newest first: a table where there is room, a card
 * per record where there is not (CardTable). A person's name leads to their
 * own activity, a plant to its page.
 */
export function ActivityTable({ rows }: { rows: ActivityRow[] }) {
  const columns: CardTableColumn<ActivityRow>[] = [
    // Names and addresses break between words: a column is never narrower than a plant's id or an address.
    { header: "Who", cell: (row) => <Who row={row} /> },
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
  return <CardTable caption="Activity, newest first" rowHeader={{ header: "When", cell: (row) => <LocalTime date={row.at} /> }} columns={columns} rows={rows} rowKey={(row) => row.id} />;
}

function Who({ row }: { row: ActivityRow }) {
  return (
    <>
      {capitalised(row.who)}
      {row.from && <span className="activity-from">from {row.from}</span>}
    </>
  );
}

/** Who, as the start of a cell: "The app", "API token “ci”", or a person's linked name. */
function capitalised({ lead, person }: ActorShown) {
  return <ActorName actor={{ lead: lead.charAt(0).toUpperCase() + lead.slice(1), person }} linkToActivity />;
}

function Changes({ row }: { row: ActivityRow }) {
  const { changes, kept, restoredFrom, restore } = row;
  return (
    <>
      {kept && changes.length > 0 && <span className="activity-note">As it was:</span>}
      <FieldChanges changes={changes} />
      {restoredFrom && <span className="activity-note">Restored from record {restoredFrom}.</span>}
      {restore && <RestorePlantButton recordId={row.id} plantId={restore.plantId} name={restore.name} restorable={restore.restorable} />}
    </>
  );
}
