import type { Metadata } from "next";
import { PlantEntry } from "@/components/plants/plant-entry";
import { requireStaff } from "@/lib/auth/sessions/require-staff";
import { signInPath } from "@/lib/auth/sessions/callback-url";
import { suggestNextPlantId } from "@/lib/plants/next-plant-id";

export const metadata: Metadata = { title: "Add a plant · Plant Store" };

const PATH = "/plants/new";

export default async function NewPlantPage() {
  await requireStaff(PATH);
  const suggestedId = await suggestNextPlantId();
  return (
    <>
      <h1>Add a plant</h1>
      <PlantEntry suggestedId={suggestedId?.toString() ?? ""} signInHref={signInPath(PATH)} />
    </>
  );
}
