"use client";

import { useEffect, useRef, useState } from "react";
import { Controller } from "react-hook-form";
import { previewPlantImport } from "@/app/(staff)/import/actions";
import { FormError } from "@/components/forms/form-error";
import { FormField } from "@/components/forms/form-field";
import { FormSubmit } from "@/components/forms/form-submit";
import { HydratedForm } from "@/components/forms/hydrated-form";
import { importSummary, PlantImportRows } from "@/components/plants/plant-import-rows";
import { formChecks, useServerForm } from "@/components/forms/use-server-form";
import type { PlantBatchImport } from "@/lib/client/plant-batch-import";
import type { PlantImportRow, PlantImportSource } from "@/lib/validations/plant-import";
import { PLANT_IMPORT_CSV_FIELD } from "@/lib/validations/plant-import-field";

/** What the page shows below the form: nothing yet, a preview of the CSV, or what the import did. */
type Stage = { kind: "choosing" } | { kind: "previewed"; csv: Blob; rows: PlantImportRow[] } | { kind: "imported"; rows: PlantImportRow[] };

const CHOOSING: Stage = { kind: "choosing" };

// No labels: the schema's messages are written for this form already.
const CHECKS = formChecks(() => import("@/lib/validations/plant-import").then(({ plantImportFormSchema }) => plantImportFormSchema));

/**
 * Imports plants from CSV in two steps: a preview (a server action asks what
 * POST /plants/batch would do with each row now, storing nothing), then the
 * import itself, the very same bytes sent to POST /plants/batch, whose
 * answer is shown row by row.
 */
export function PlantImport() {
  const form = useServerForm(CHECKS, { defaultValues: { file: undefined, text: "" }, onSubmit: onPreview });
  const { register, control, setValue, errors } = form;
  const [stage, setStage] = useState<Stage>(CHOOSING);
  const [importing, setImporting] = useState(false);
  const [importError, setImportError] = useState("");
  const fileInput = useRef<HTMLInputElement | null>(null);
  const stageHeading = useRef<HTMLHeadingElement>(null);

  // A new preview or result takes the focus (the button pressed may be gone): keyboard and screen reader users land on it.
  useEffect(() => {
    if (stage.kind !== "choosing") stageHeading.current?.focus();
  }, [stage]);

  // What was shown belongs to the CSV as it was: changing it takes the preview away.
  function sourceChanged() {
    setStage(CHOOSING);
    setImportError("");
  }

  function clearFile() {
    if (fileInput.current) fileInput.current.value = "";
    setValue("file", undefined, { shouldValidate: false });
    sourceChanged();
    fileInput.current?.focus();
  }

  async function onPreview({ csv: source }: PlantImportSource) {
    sourceChanged();
    const body = new FormData();
    try {
      // A copy of the bytes, so the import sends exactly what was previewed even if the file on disk changes meanwhile.
      const csv = new Blob([await source.arrayBuffer()], { type: "text/csv" });
      body.append(PLANT_IMPORT_CSV_FIELD, csv);
      const preview = await previewPlantImport(body);
      if ("problem" in preview) return `This CSV cannot be imported: ${preview.problem}. Nothing was stored.`;
      setStage({ kind: "previewed", csv, rows: preview.rows });
    } catch {
      return "The preview failed: the file could not be read, or the server could not be reached. Nothing was stored; try again.";
    }
  }

  async function onImport(csv: Blob, rows: PlantImportRow[]) {
    setImporting(true);
    setImportError("");
    // The batch's client (lossless-json, the answer's schema) loads when importing, not with the page (issue 20).
    const outcome = await import("@/lib/client/plant-batch-import").then(
      ({ importPlantBatch }) => importPlantBatch(csv),
      (): PlantBatchImport => ({ ok: false, message: "Nothing was imported: the server could not be reached. Check your connection and try again." }),
    );
    setImporting(false);
    if (!outcome.ok) {
      setImportError(outcome.message);
      return;
    }
    // The file is the one previewed, so each result's index is a previewed row.
    setStage({ kind: "imported", rows: outcome.results.map((result) => ({ cells: rows[result.index]?.cells ?? {}, result })) });
  }

  const file = errors.file?.message;
  return (
    <>
      <HydratedForm className="stack import-form" onSubmit={form.submit} noValidate>
        <FormField id="import-file" label="CSV file" hint="A .csv file in UTF-8, such as one exported from Plant Store." error={file}>
          {(described) => (
            <Controller
              name="file"
              control={control}
              render={({ field }) => (
                <div className="file-row">
                  <input
                    {...described}
                    ref={(element) => {
                      fileInput.current = element;
                      field.ref(element);
                    }}
                    name={field.name}
                    type="file"
                    accept=".csv,text/csv"
                    onBlur={field.onBlur}
                    onChange={(event) => {
                      field.onChange(event.target.files?.[0]);
                      sourceChanged();
                    }}
                  />
                  {field.value && (
                    <button type="button" className="secondary" onClick={clearFile}>
                      Clear file
                    </button>
                  )}
                </div>
              )}
            />
          )}
        </FormField>
        <FormField id="import-text" label="Or paste CSV text" hint="The same format: the header row first." error={errors.text?.message}>
          {(described) => <textarea {...register("text", { onChange: sourceChanged })} {...described} rows={8} spellCheck={false} autoComplete="off" />}
        </FormField>
        <FormSubmit form={form} pendingLabel="Checking…">
          Preview
        </FormSubmit>
      </HydratedForm>

      {stage.kind === "previewed" && (
        <section aria-labelledby="import-stage-heading" className="import-stage">
          <h2 id="import-stage-heading" ref={stageHeading} tabIndex={-1}>
            Preview: nothing is stored yet
          </h2>
          <p>
            What importing would do with each row if it ran now. Others may add, change or delete plants before you import, so what the import reports when it has
            run is what happened.
          </p>
          <p role="status">{importSummary(stage.rows, "preview")}</p>
          {stage.rows.length > 0 && <PlantImportRows rows={stage.rows} phase="preview" caption="What each row would do" captionId="import-preview-caption" />}
          <FormError message={importError || undefined} />
          <ImportButton rows={stage.rows} importing={importing} onImport={() => onImport(stage.csv, stage.rows)} />
        </section>
      )}

      {stage.kind === "imported" && (
        <section aria-labelledby="import-stage-heading" className="import-stage">
          <h2 id="import-stage-heading" ref={stageHeading} tabIndex={-1}>
            Import done
          </h2>
          <p role="status">{importSummary(stage.rows, "result")}</p>
          <PlantImportRows rows={stage.rows} phase="result" caption="What became of each row" captionId="import-result-caption" />
        </section>
      )}
    </>
  );
}

function ImportButton({ rows, importing, onImport }: { rows: readonly PlantImportRow[]; importing: boolean; onImport: () => void }) {
  const fresh = rows.filter(({ result }) => result.status === "stored").length;
  if (rows.length === 0) return null;
  if (fresh === 0) return <p>No row is new: importing now would store nothing.</p>;
  return (
    <button type="button" disabled={importing} onClick={onImport}>
      {importing ? "Importing…" : `Import ${fresh.toLocaleString("en")} new plant${fresh === 1 ? "" : "s"}`}
    </button>
  );
}
