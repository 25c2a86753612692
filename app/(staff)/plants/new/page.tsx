import type { Metadata } from "next";
import { PlantForm } from "@/components/plant-form";
import { requireStaff } from "@/lib/auth/require-staff";

export const metadata: Metadata = { title: "Add a plant · Plant Store" };

export default async function NewPlantPage() {
  await requireStaff("/plants/new");
  return (
    <>
      <h1>Add a plant</h1>
      <PlantForm />
    </>
  );
}
