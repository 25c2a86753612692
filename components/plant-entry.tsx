"use client";

import { useEffect, useState } from "react";
import { PlantForm, type SavedOutcome } from "@/components/plant-form";
import { SaveConfirmation } from "@/components/save-confirmation";
import { WaitingPlantsList } from "@/components/waiting-plants-list";
import { nextPlantId } from "@/lib/client/next-plant-id";
import { registerServiceWorker } from "@/lib/client/offline/service-worker-registration";
import { useOnline, useWaitingPlants } from "@/lib/client/offline/use-waiting-plants";
import type { WaitingPlant } from "@/lib/validations/waiting-plant";

/**
 * Add a plant, for a working day: the form, what became of the last plant,
 * and the plants waiting in this browser to be sent (added without a
 * connection), which this page sends as soon as it can.
 */
export function PlantEntry({ suggestedId, signInHref }: { suggestedId: string; signInHref: string }) {
  const { plants, lastSending, sendNow } = useWaitingPlants({ send: true });
  const online = useOnline();
  const [used, setUsed] = useState<bigint[]>([]);
  const [saved, setSaved] = useState<SavedOutcome>();
  const [editing, setEditing] = useState<WaitingPlant>();
  // A new form, freshly filled in, each time editing a waiting plant starts or ends.
  const [formKey, setFormKey] = useState(0);

  // Once this page has been visited, it works offline (lib/client/offline/service-worker.ts).
  useEffect(registerServiceWorker, []);

  const waitingIds = plants?.map((waiting) => BigInt(waiting.plant.id)) ?? [];
  const nextId = nextPlantId(suggestedId, [...used, ...waitingIds]);

  function showForm(waiting: WaitingPlant | undefined) {
    setEditing(waiting);
    setFormKey((key) => key + 1);
  }

  function onSaved(outcome: SavedOutcome) {
    setSaved(outcome);
    setUsed((ids) => [...ids, outcome.plant.id]);
    if (editing) showForm(undefined);
  }

  return (
    <>
      <p className="connection-notice" aria-live="polite">
        {online ? "" : "You are offline. Plants you add are kept in this browser and sent when the connection returns."}
      </p>
      <PlantForm
        key={formKey}
        nextId={nextId}
        editing={editing}
        focusOnMount={formKey > 0}
        status={<SaveConfirmation saved={saved} signInHref={signInHref} />}
        onSaved={onSaved}
        onSubmitting={() => setSaved(undefined)}
        onCancelEditing={() => showForm(undefined)}
      />
      <WaitingPlantsList
        plants={plants}
        lastSending={lastSending}
        online={online}
        editingSeq={editing?.seq}
        signInHref={signInHref}
        onEdit={(waiting) => {
          setSaved(undefined);
          showForm(waiting);
        }}
        onDiscarded={(waiting) => {
          if (editing?.seq === waiting.seq) showForm(undefined);
        }}
        onSendNow={sendNow}
      />
    </>
  );
}
