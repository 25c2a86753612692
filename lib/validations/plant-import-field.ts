// Apart from the import form's schema (lib/validations/plant-import.ts), so
// that the form names the field without loading zod with the page (issue 20).

/** The preview's server action takes the CSV as a Blob in a form field of this name. */
export const PLANT_IMPORT_CSV_FIELD = "csv";
