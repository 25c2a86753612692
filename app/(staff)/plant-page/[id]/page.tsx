import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { DeletedPlantNotice } from "@/components/plants/deleted-plant-notice";
import { Fact } from "@/components/shared/fact";
import { LocalTime } from "@/components/shared/local-time";
import { PlantEditor } from "@/components/plants/plant-editor";
import { PlantHistory } from "@/components/plants/plant-history";
import { describeEntry } from "@/lib/activity/describe";
import { plantHistory } from "@/lib/activity/history";
import { namesOfTokenOwners } from "@/lib/activity/people-names";
import { findPlantDeletion } from "@/lib/activity/plant-deletion";
import { RestorePlantButton } from "@/components/plants/restore-plant-button";
import { requireStaff } from "@/lib/auth/sessions/require-staff";
import { plantEtag } from "@/lib/http/entity-tags";
import { newestPosition } from "@/lib/live/change-reads";
import { findPlantRecord } from "@/lib/plants/plant-queries";
import { plantPathSchema } from "@/lib/validations/plant";
import { HISTORY_BEFORE_PARAM, PLANT_HISTORY_PAGE_SIZE, readHistoryBefore } from "@/lib/validations/plant-history-page";
import { historyPageAsked } from "@/lib/validations/plant-history-param";

// A plant's page, at the plant's own URL: proxy.ts rewrites a browser's
// /plants/{id} here, while programs get the API's JSON at that URL. This
// route has no URL of its own (the proxy answers 404 to it).
//
// A plant no longer stored but with a history (issue 22) gets a page of its
// own here, saying it was deleted, by whom, and its history, answered 200:
// a page that is not found must be not-found.tsx, which Next renders without
// the route's params (and along with every page of the route, in case it is
// needed), so it could only learn the id from a header the proxy set, which
// Next's own navigations (next.config.js's rewrite) do not pass through. The
// API's GET /plants/{id} still answers 404 for it; an id with no history is
// still this page's 404.

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The id in the URL, or undefined when it is no id written the one canonical way (007, 1e3). */
function readId(text: string): bigint | undefined {
  const id = plantPathSchema.safeParse({ id: text });
  return id.success ? id.data.id : undefined;
}

const readPlant = cache(findPlantRecord);
const readDeletion = cache(findPlantDeletion);

// Signed out, sign-in brings the person back to the plant's URL (not this route's).
const returnPath = (text: string) => `/plants/${encodeURIComponent(text)}`;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id: text } = await params;
  // The title names the plant: only for staff.
  await requireStaff(returnPath(text));
  const id = readId(text);
  const record = id === undefined ? undefined : await readPlant(id);
  if (record) return { title: `${record.plant.name} · Plant Store` };
  const deleted = id === undefined ? undefined : await readDeletion(id);
  return { title: `${deleted ? `${deleted.plant?.name ?? `Plant ${id}`} (deleted)` : "No such plant"} · Plant Store` };
}

export default async function PlantPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { id: text } = await params;
  const viewer = await requireStaff(returnPath(text));
  const id = readId(text);
  if (id === undefined) notFound();
  const query = await searchParams;
  const { before, mistaken } = readHistoryBefore(query);
  // Read first: the editor follows the plant's changes after it (lib/client/change-feed.ts).
  const position = await newestPosition();
  const [record, history] = await Promise.all([readPlant(id), plantHistory(id, { limit: PLANT_HISTORY_PAGE_SIZE, before })]);
  const found = record ? { record } : await readDeletion(id).then((deleted) => deleted && { deleted });
  if (!found) notFound();
  const deletion = "deleted" in found ? found.deleted.deletion : null;
  const tokenOwners = await namesOfTokenOwners(deletion ? [deletion, ...history.entries] : history.entries);
  const linkToActivity = viewer.role === "owner";
  const historySection = (
    <PlantHistory
      plantId={id}
      entries={history.entries.map((entry) => describeEntry(entry, tokenOwners))}
      next={history.next}
      linkToActivity={linkToActivity}
      before={before}
      mistakenBefore={mistaken}
      renderedFor={historyPageAsked([query[HISTORY_BEFORE_PARAM] ?? []].flat())}
    />
  );

  if ("deleted" in found) {
    const { plant } = found.deleted;
    return (
      <>
        <p className="breadcrumb">
          <Link href="/">Plants</Link>
        </p>
        <h1 className="plant-title">{plant ? plant.name : `Plant ${id}`} (deleted)</h1>
        <DeletedPlantNotice
          deletion={deletion && describeEntry(deletion, tokenOwners)}
          linkToActivity={linkToActivity}
          // Owners restore from here as from Activity: the id is free (no plant has it, or this page would show
          // that plant), and the delete's record keeps the plant to store again as it was.
          restore={
            linkToActivity && deletion && plant ? (
              <RestorePlantButton recordId={String(deletion.id)} plantId={String(id)} name={plant.name} restorable onItsPage />
            ) : undefined
          }
        />
        <dl className="facts plant-facts">
          <Fact term="Id" className="id">{id.toString()}</Fact>
          {plant && <Fact term="Tag when deleted">{plant.tag ?? <span className="muted">no tag</span>}</Fact>}
        </dl>
        {historySection}
      </>
    );
  }

  const { plant, version, createdAt, updatedAt } = found.record;
  return (
    <>
      <p className="breadcrumb">
        <Link href="/">Plants</Link>
      </p>
      {/* Focusable from script only: the editor takes focus here when the page's control is gone (Restore). */}
      <h1 id="plant-title" className="plant-title" tabIndex={-1}>
        {plant.name}
      </h1>
      <dl className="facts plant-facts">
        <Fact term="Id" className="id">{plant.id.toString()}</Fact>
        <Fact term="Tag">{plant.tag ?? <span className="muted">no tag</span>}</Fact>
        <Fact term="Added">
          <LocalTime date={createdAt} />
        </Fact>
        <Fact term="Last changed">
          <LocalTime date={updatedAt} fallback="never" />
        </Fact>
        <Fact term="Version">{version}</Fact>
      </dl>
      <PlantEditor plant={plant} etag={plantEtag(found.record)} position={position} headingId="plant-title" />
      {historySection}
    </>
  );
}
