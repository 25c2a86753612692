import type { Metadata } from "next";
import { PlantImport } from "@/components/plants/plant-import";
import { requireStaff } from "@/lib/auth/sessions/require-staff";
import { PLANT_BATCH_MAX } from "@/lib/validations/plant-batch";
import { PLANT_IMPORT_SIZE_LIMIT } from "@/lib/validations/plant-import";

export const metadata: Metadata = { title: "Import plants · Plant Store" };

// Not under /plants/: every path there but /plants/new is the API's /plants/{id}.
export default async function ImportPlantsPage() {
  await requireStaff("/import");
  return (
    <>
      <h1>Import plants</h1>
      <p className="lead">
        Add many plants at once from CSV: a header row naming the columns <code>id</code> and <code>name</code>, and <code>tag</code> if you like, in any order; then
        one plant a row, up to {PLANT_BATCH_MAX.toLocaleString("en")} rows and {PLANT_IMPORT_SIZE_LIMIT}. A file exported from Plant Store imports as it is. You see what
        each row would do before anything is stored.
      </p>
      <PlantImport />
    </>
  );
}
