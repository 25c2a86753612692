"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { FormError } from "@/components/form-error";
import { InputField } from "@/components/form-field";
import { SubmitButton } from "@/components/submit-button";
import { submitPlant } from "@/lib/client/plant-submission";
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
      <InputField id="plant-id" label="Id" hint={`A whole number from ${INT64_MIN} to ${INT64_MAX}.`} error={errors.id?.message} registration={register("id")} type="text" autoComplete="off" spellCheck={false} required />
      <InputField id="plant-name" label="Name" hint={`Up to ${PLANT_NAME_MAX} characters.`} error={errors.name?.message} registration={register("name")} type="text" autoComplete="off" required />
      <InputField id="plant-tag" label="Tag (optional)" hint={`The kind of plant, up to ${PLANT_TAG_MAX} characters.`} error={errors.tag?.message} registration={register("tag")} type="text" autoComplete="off" />
      <FormError message={formError} />
      <p id="plant-form-status" className="confirmation" role="status">
        {confirmation}
      </p>
      <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
        Add plant
      </SubmitButton>
    </form>
  );
}
