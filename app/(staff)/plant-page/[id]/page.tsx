import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { LocalTime } from "@/components/local-time";
import { PlantEditor } from "@/components/plant-editor";
import { requireStaff } from "@/lib/auth/require-staff";
import { plantEtag } from "@/lib/http/entity-tags";
import { findPlantRecord } from "@/lib/plants/plant-queries";
import { plantPathSchema } from "@/lib/validations/plant";

// A plant's page, at the plant's own URL: proxy.ts rewrites a browser's
// /plants/{id} here, while programs get the API's JSON at that URL. This
// route has no URL of its own (the proxy answers 404 to it).

type Params = Promise<{ id: string }>;

/** The plant an id in the URL names, or undefined: no plant has it, or it is no id written the one canonical way (007, 1e3). */
const readPlant = cache(async (text: string) => {
  const id = plantPathSchema.safeParse({ id: text });
  return id.success ? findPlantRecord(id.data.id) : undefined;
});

// Signed out, sign-in brings the person back to the plant's URL (not this route's).
const returnPath = (text: string) => `/plants/${encodeURIComponent(text)}`;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id } = await params;
  // The title names the plant: only for staff.
  await requireStaff(returnPath(id));
  const record = await readPlant(id);
  return { title: `${record ? record.plant.name : "No such plant"} · Plant Store` };
}

export default async function PlantPage({ params }: { params: Params }) {
  const { id: text } = await params;
  await requireStaff(returnPath(text));
  const record = await readPlant(text);
  if (!record) notFound();
  const { plant, version, createdAt, updatedAt } = record;
  return (
    <>
      <p className="breadcrumb">
        <Link href="/">Plants</Link>
      </p>
      <h1 className="plant-title">{plant.name}</h1>
      <dl className="facts plant-facts">
        <div>
          <dt>Id</dt>
          <dd className="id">{plant.id.toString()}</dd>
        </div>
        <div>
          <dt>Tag</dt>
          <dd>{plant.tag ?? <span className="muted">no tag</span>}</dd>
        </div>
        <div>
          <dt>Added</dt>
          <dd>
            <LocalTime date={createdAt} />
          </dd>
        </div>
        <div>
          <dt>Last changed</dt>
          <dd>
            <LocalTime date={updatedAt} fallback="never" />
          </dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>{version}</dd>
        </div>
      </dl>
      <PlantEditor plant={plant} etag={plantEtag(record)} />
    </>
  );
}
