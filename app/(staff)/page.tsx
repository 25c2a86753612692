import type { Metadata } from "next";
import Link from "next/link";
import { listNewestPlants } from "@/lib/plants/plant-queries";
import { requireStaff } from "@/lib/auth/require-staff";
import { UtcTime } from "@/components/utc-time";

export const metadata: Metadata = { title: "Plants · Plant Store" };

type SearchParams = Promise<{ page?: string | string[] }>;

export default async function PlantsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/");
  const page = pageNumber((await searchParams).page);
  const { plants, hasNext } = await listNewestPlants(page);
  return (
    <>
      <h1>Plants</h1>
      {plants.length === 0 ? (
        <p>
          {page === 1 ? "No plants yet." : "No plants on this page."} <Link href="/plants/new">Add a plant</Link>.
        </p>
      ) : (
        <div className="table-scroll" role="region" aria-labelledby="plants-caption" tabIndex={0}>
          <table>
            <caption id="plants-caption">Plants, newest first (page {page})</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Name</th>
                <th scope="col">Tag</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {plants.map((plant) => (
                <tr key={plant.id.toString()}>
                  <td className="id">{plant.id.toString()}</td>
                  <td>{plant.name}</td>
                  <td>{plant.tag ?? ""}</td>
                  <td>
                    <UtcTime date={plant.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="Pages" className="pager">
        {page > 1 && <Link href={page === 2 ? "/" : `/?page=${page - 1}`}>Newer plants</Link>}
        {hasNext && <Link href={`/?page=${page + 1}`}>Older plants</Link>}
      </nav>
    </>
  );
}

function pageNumber(value: string | string[] | undefined): number {
  const page = typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return Math.max(page, 1);
}
