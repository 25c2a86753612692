import type { RefObject } from "react";
import type { Plant } from "@/lib/validations/plant";
import type { PlantEditFormValues } from "@/lib/validations/plant-edit";

/**
 * What a 412 means to the person (issue 11): someone else saved another
 * version of the plant while they were editing it. Their edit and the other
 * version side by side, field by field, and the two ways on: keep the edit
 * (sent again, over the other version) or take the other version.
 */
export function PlantConflict({
  edit,
  editedFrom,
  theirs,
  pending,
  headingRef,
  onKeepMine,
  onTakeTheirs,
}: {
  /** The form as it is now. */
  edit: PlantEditFormValues;
  /** The version the person was editing. */
  editedFrom: Plant;
  /** The version saved now. */
  theirs: Plant;
  pending: boolean;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  const rows = [
    { field: "Name", mine: edit.name, from: editedFrom.name, now: theirs.name },
    { field: "Tag", mine: edit.tag, from: editedFrom.tag ?? "", now: theirs.tag ?? "" },
  ];
  return (
    <section className="conflict" aria-labelledby="plant-conflict-title">
      <h3 id="plant-conflict-title" ref={headingRef} tabIndex={-1}>
        Someone else changed this plant
      </h3>
      <p>While you were editing, someone else saved another version of this plant. Nothing of yours has been saved yet.</p>
      <table className="conflict-table">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Your edit</th>
            <th scope="col">Saved now</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ field, mine, from, now }) => (
            <tr key={field}>
              <th scope="row">{field}</th>
              <td>{mine === from ? <span className="muted">not changed by you</span> : <Text value={mine} />}</td>
              <td>
                <Text value={now} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>Keeping your edit saves the fields you changed over the other version; the fields you did not change stay as they are saved now.</p>
      <div className="dialog-buttons">
        <button type="button" onClick={onKeepMine} disabled={pending}>
          {pending ? "Saving…" : "Keep my edit"}
        </button>
        <button type="button" className="secondary" onClick={onTakeTheirs} disabled={pending}>
          Take the saved version
        </button>
      </div>
    </section>
  );
}

function Text({ value }: { value: string }) {
  return value === "" ? <span className="muted">no tag</span> : <>{value}</>;
}
