import type { Metadata } from "next";
import { cookies } from "next/headers";
import Link from "next/link";
import { FlashMessage } from "@/components/shared/flash-message";
import { LivePlantList } from "@/components/plants/live-plant-list";
import { PlantListHead } from "@/components/plants/plant-list-table";
import { PlantSearchForm } from "@/components/plants/plant-search-form";
import { requireStaff } from "@/lib/auth/sessions/require-staff";
import { FLASH_COOKIE } from "@/lib/client/flash-message";
import { newestPosition } from "@/lib/live/change-reads";
import { findPlantsPage, listTagsInUse, type PlantListPage } from "@/lib/plants/plant-queries";
import type { PlantOrder } from "@/lib/plants/plant-search";
import { plantExportHref, plantListHref, type PlantListSearch, type PlantSort, readPlantListSearch } from "@/lib/validations/plant-list";
import { sentence } from "@/lib/validations/sentence";

export const metadata: Metadata = { title: "Plants · Plant Store" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const ORDERS: Record<PlantSort, PlantOrder> = {
  "-added": { by: "added", descending: true },
  added: { by: "added", descending: false },
  id: { by: "id", descending: false },
  "-id": { by: "id", descending: true },
  name: { by: "name", descending: false },
  "-name": { by: "name", descending: true },
};

/** The plants: found by name and tag, sorted, a numbered page at a time, all of it in the URL. */
export default async function PlantsPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const { search, errors } = readPlantListSearch(params);
  await requireStaff(plantListHref(search));
  const mistaken = errors.q !== undefined || errors.tag !== undefined;
  // Read before the plants: the page follows every change after it (a change read twice is applied twice, harmlessly).
  const position = await newestPosition();
  const [found, tags] = await Promise.all([
    mistaken ? undefined : findPlantsPage({ filter: { q: search.q, tag: search.tag }, order: ORDERS[search.sort], page: search.page }),
    listTagsInUse(),
  ]);
  const flash = (await cookies()).get(FLASH_COOKIE)?.value;
  const raw = (name: "q" | "tag") => (typeof params[name] === "string" ? params[name] : (search[name] ?? ""));
  return (
    <>
      <h1>Plants</h1>
      {flash && <FlashMessage message={flash} />}
      <PlantSearchForm
        fields={{ q: raw("q"), tag: raw("tag"), sort: search.sort }}
        // The API's words ("q must be …"), as a sentence about the field the person sees.
        errors={{ q: errors.q && sentence(errors.q, "The search text"), tag: errors.tag && sentence(errors.tag, "Tag") }}
        tags={tags}
      />
      {/* One live region whatever the outcome, so that each new search's count is announced. */}
      <p className="match-count" role="status">
        {found ? countText(found.total, search) : "Correct the search to see plants."}
      </p>
      {found && <Results found={found} search={search} position={position} />}
    </>
  );
}

function countText(total: number, { q, tag }: PlantListSearch): string {
  const plants = `${total.toLocaleString("en-GB")} ${total === 1 ? "plant" : "plants"}`;
  if (q === undefined && tag === undefined) return plants;
  return `${plants} found`;
}

function Results({ found, search, position }: { found: PlantListPage; search: PlantListSearch; position: string }) {
  const { plants, total, page, pageCount } = found;
  if (total === 0) {
    return (
      <>
        {search.q === undefined && search.tag === undefined ? (
          <p>
            No plants yet. <Link href="/plants/new">Add a plant</Link>.
          </p>
        ) : (
          <p>No plant matches this search.</p>
        )}
        {/* Plants added elsewhere meanwhile are counted here too. */}
        <LivePlantList plants={[]} filters={{ q: search.q, tag: search.tag }} position={position} head={null} />
      </>
    );
  }
  if (plants.length === 0) {
    return (
      <p>
        There is no page {page}: these plants fill {pageCount === 1 ? "one page" : `${pageCount} pages`}.{" "}
        <Link href={plantListHref({ ...search, page: pageCount })}>Go to the last page</Link>.
      </p>
    );
  }
  return (
    <>
      <LivePlantList plants={plants} filters={{ q: search.q, tag: search.tag }} position={position} head={<PlantListHead search={search} />} />
      <Pager search={search} page={page} pageCount={pageCount} />
      <p className="export">
        {/* A link rather than a fetch with Accept: text/csv: the browser streams the file to disk, whatever its size. */}
        <a href={plantExportHref(search)}>Download {total === 1 ? "this plant" : `these ${total.toLocaleString("en-GB")} plants`} as CSV</a>
      </p>
    </>
  );
}

function Pager({ search, page, pageCount }: { search: PlantListSearch; page: number; pageCount: number }) {
  if (pageCount === 1) return null;
  return (
    <nav aria-label="Pages" className="pager">
      {page > 1 && (
        <Link href={plantListHref({ ...search, page: page - 1 })} rel="prev">
          Previous page
        </Link>
      )}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount && (
        <Link href={plantListHref({ ...search, page: page + 1 })} rel="next">
          Next page
        </Link>
      )}
    </nav>
  );
}
