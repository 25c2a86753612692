import { z } from "zod";
import { plantPatchSchema } from "@/lib/validations/plant";

// The staff's form for changing a stored plant (issue 11): its name and tag
// as typed, under the rules of the JSON Merge Patch the form sends
// (plantPatchSchema), so the form and PATCH /plants/{id} refuse the same
// things in the same words. The id is no field: ids never change. The form's
// values and the patch it sends are made in lib/validations/plant-edit-patch.ts,
// without zod, which the page loads only to validate (issue 20).

export { plantEditFormValues, plantEditPatch } from "@/lib/validations/plant-edit-patch";

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
