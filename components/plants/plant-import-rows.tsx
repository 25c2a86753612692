import type { PlantBatchResult } from "@/lib/validations/plant-batch";
import type { PlantImportRow } from "@/lib/validations/plant-import";

/** A preview says what each row would do; a result, what the batch did. */
export type ImportPhase = "preview" | "result";

const STATUS_WORDS: Record<ImportPhase, Record<PlantBatchResult["status"], string>> = {
  preview: { stored: "new", "already stored": "already stored", conflict: "conflict", invalid: "invalid" },
  result: { stored: "stored", "already stored": "already stored", conflict: "conflict", invalid: "invalid" },
};

/** "4 rows: 2 new, 1 conflict, 1 invalid", in the order of the statuses, naming only those that occur. */
export function importSummary(rows: readonly PlantImportRow[], phase: ImportPhase): string {
  if (rows.length === 0) return "0 rows: the CSV has its header row and nothing else.";
  const counts = new Map<PlantBatchResult["status"], number>();
  for (const { result } of rows) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  const parts = (Object.keys(STATUS_WORDS[phase]) as PlantBatchResult["status"][]).flatMap((status) => {
    const count = counts.get(status);
    return count ? [`${count.toLocaleString("en")} ${STATUS_WORDS[phase][status]}`] : [];
  });
  return `${rows.length.toLocaleString("en")} row${rows.length === 1 ? "" : "s"}: ${parts.join(", ")}.`;
}

/** Why a row is not stored, in the batch's own words (its messages without the "line N:" the table shows apart). */
function reason(result: PlantBatchResult): string | undefined {
  if (result.status === "conflict") return "id taken by another plant";
  if (result.status !== "invalid") return undefined;
  const messages = [...new Set(result.error.details?.map((detail) => detail.message))];
  return messages.length > 0 ? messages.join("; ") : result.error.message;
}

/**
 * The rows of an import, one a table row: line, id, name, tag and what
 * became (or would become) of it. Values a row stores are shown as stored;
 * the others as the file has them. In a result, the id of a stored plant
 * links to its page. At phone width each row is a card (app/globals.css),
 * its cells labelled from data-label.
 */
export function PlantImportRows({ rows, phase, caption, captionId }: { rows: readonly PlantImportRow[]; phase: ImportPhase; caption: string; captionId: string }) {
  const outcomeHeader = phase === "preview" ? "Would be" : "Result";
  return (
    <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="import-rows">
        <caption id={captionId}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Tag</th>
            <th scope="col">{outcomeHeader}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ cells, result }) => {
            const plant = "plant" in result ? result.plant : undefined;
            const id = plant ? plant.id.toString() : (cells.id ?? "");
            const why = reason(result);
            return (
              <tr key={result.index}>
                <td data-label="Line">{result.line}</td>
                <td data-label="Id" className="id">
                  {plant && phase === "result" ? <a href={`/plants/${id}`}>{id}</a> : id}
                </td>
                <td data-label="Name" className="name">
                  {plant ? plant.name : cells.name}
                </td>
                <td data-label="Tag">{plant ? plant.tag : cells.tag}</td>
                <td data-label={outcomeHeader}>
                  <span className={`outcome outcome-${result.status.replace(" ", "-")}`}>{STATUS_WORDS[phase][result.status]}</span>
                  {why && `: ${why}`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
