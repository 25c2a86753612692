import type { Plant, PlantPatch } from "@/lib/validations/plant";
import type { PlantEdit, PlantEditFormValues } from "@/lib/validations/plant-edit";

// The plant page's form values and the merge patch an edit makes, apart from
// the form's schema (lib/validations/plant-edit.ts) so that the page builds
// them without loading zod (issue 20).

export function plantEditFormValues(plant: Plant): PlantEditFormValues {
  return { name: plant.name, tag: plant.tag ?? "" };
}

/**
 * The merge patch that makes `edit` of the plant it was made from: only the
 * fields the person changed, so that sent again over someone else's newer
 * version (after a 412) it changes what the person changed and keeps the rest
 * of theirs. Empty when nothing changed.
 */
export function plantEditPatch(from: Plant, edit: PlantEdit): PlantPatch {
  return {
    ...(edit.name !== from.name && { name: edit.name }),
    ...(edit.tag !== (from.tag ?? null) && { tag: edit.tag }),
  };
}
