"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { FormError } from "@/components/form-error";
import { FormField } from "@/components/form-field";
import { submitPlant } from "@/lib/plant-submission";
import { INT64_MAX, INT64_MIN, type NewPlant, PLANT_NAME_MAX, PLANT_TAG_MAX, plantFormSchema, type PlantFormValues } from "@/lib/validations/plant";

const EMPTY: PlantFormValues = { id: "", name: "", tag: "" };

/** Adds a plant through POST /plants; the API's own schema decides what is valid, here and on the server. */
export function PlantForm() {
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<PlantFormValues, unknown, NewPlant>({
    resolver: zodResolver(plantFormSchema),
    // Errors appear while typing, not only after a failed submit.
    mode: "onChange",
    defaultValues: EMPTY,
  });
  const [confirmation, setConfirmation] = useState("");

  async function onSubmit(plant: NewPlant) {
    setConfirmation("");
    const result = await submitPlant(plant);
    if (result.ok) {
      const { id, name, tag } = result.plant;
      setConfirmation(`Saved ${name}${tag ? ` (${tag})` : ""} with id ${id.toString()}.`);
      reset(EMPTY);
      setFocus("id");
      return;
    }
    result.fieldErrors.forEach(({ field, message }, index) => setError(field, { type: "server", message }, { shouldFocus: index === 0 }));
    if (result.formError) setError("root.server", { type: "server", message: result.formError });
  }

  const formError = errors.root?.server?.message;

  return (
    <form className="stack" onSubmit={handleSubmit(onSubmit)} noValidate aria-describedby="plant-form-status">
      <FormField id="plant-id" label="Id" hint={`A whole number from ${INT64_MIN} to ${INT64_MAX}.`} error={errors.id?.message}>
        {(described) => <input {...register("id")} {...described} type="text" autoComplete="off" spellCheck={false} required />}
      </FormField>
      <FormField id="plant-name" label="Name" hint={`Up to ${PLANT_NAME_MAX} characters.`} error={errors.name?.message}>
        {(described) => <input {...register("name")} {...described} type="text" autoComplete="off" required />}
      </FormField>
      <FormField id="plant-tag" label="Tag (optional)" hint={`The kind of plant, up to ${PLANT_TAG_MAX} characters.`} error={errors.tag?.message}>
        {(described) => <input {...register("tag")} {...described} type="text" autoComplete="off" />}
      </FormField>
      <FormError message={formError} />
      <p id="plant-form-status" className="confirmation" role="status">
        {confirmation}
      </p>
      <button type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Saving…" : "Add plant"}
      </button>
    </form>
  );
}
