import { z } from "zod";
import { type Plant, type PlantPatch, plantPatchSchema } from "@/lib/validations/plant";

// The staff's form for changing a stored plant (issue 11): its name and tag
// as typed, under the rules of the JSON Merge Patch the form sends
// (plantPatchSchema), so the form and PATCH /plants/{id} refuse the same
// things in the same words. The id is no field: ids never change.

export const plantEditFormSchema = z.object({
  name: plantPatchSchema.shape.name.unwrap(),
  // An empty field is no tag: the patch removes it ("tag": null).
  tag: z
    .string()
    .transform((text) => (text === "" ? null : text))
    .pipe(plantPatchSchema.shape.tag.unwrap()),
});

/** What the form's fields hold: text, before parsing. */
export type PlantEditFormValues = z.input<typeof plantEditFormSchema>;
/** A checked edit: the plant's name and tag as the person wants them, null for no tag. */
export type PlantEdit = z.output<typeof plantEditFormSchema>;

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
