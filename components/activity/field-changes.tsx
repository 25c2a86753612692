// The fields a change changed, old → new (lib/activity/describe.ts
// listChanges). The arrow is seen, not read: a screen reader reads "Name: from
// Monstera to Monstera deliciosa". A subject created or deleted has one side
// only: its values, as they were then.

/** A value as shown: its text, and whether it is the absence of one ("no tag"), shown apart. */
export type ValueShown = { text: string; none: boolean };

/** One field of a change: before and after, or one side only. */
export type FieldChangeShown = { field: string; label: string; before?: ValueShown; after?: ValueShown };

export function FieldChanges({ changes }: { changes: readonly FieldChangeShown[] }) {
  if (changes.length === 0) return null;
  return (
    <ul className="field-changes">
      {changes.map((change) => (
        <li key={change.field}>
          <span className="field-label">{change.label}:</span> <Values change={change} />
        </li>
      ))}
    </ul>
  );
}

function Values({ change: { before, after } }: { change: FieldChangeShown }) {
  if (before && after) {
    return (
      <>
        <span className="visually-hidden">from</span> <Value value={before} /> <span aria-hidden="true">→</span>
        <span className="visually-hidden">to</span> <Value value={after} />
      </>
    );
  }
  const only = after ?? before;
  return only ? <Value value={only} /> : null;
}

function Value({ value }: { value: ValueShown }) {
  return value.none ? <span className="muted">{value.text}</span> : <span className="field-value">{value.text}</span>;
}
