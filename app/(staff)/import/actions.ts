"use server";

import { requireStaff } from "@/lib/auth/sessions/require-staff";
import { previewPlantBatchCsv } from "@/lib/http/plant-batch-preview";
import { PLANT_IMPORT_CSV_FIELD, type PlantImportPreview, plantImportUploadSchema } from "@/lib/validations/plant-import";

// Server actions are public endpoints: each one checks the session itself.

/**
 * What importing this CSV (POST /plants/batch) would do now, row by row,
 * storing nothing. Any staff member may import, so any may preview.
 */
export async function previewPlantImport(form: FormData): Promise<PlantImportPreview> {
  await requireStaff("/import");
  const csv = plantImportUploadSchema.safeParse(form.get(PLANT_IMPORT_CSV_FIELD));
  if (!csv.success) return { problem: csv.error.issues[0]!.message };
  return previewPlantBatchCsv(csv.data);
}
