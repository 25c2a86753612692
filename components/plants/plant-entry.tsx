"use client";

import { useEffect, useState } from "react";
import { PlantForm, type SavedOutcome } from "@/components/plants/plant-form";
import { type LastPlant, SaveConfirmation } from "@/components/plants/save-confirmation";
import { WaitingPlantsList } from "@/components/plants/waiting-plants-list";
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
  const { plants, lastSending, sentSeqs, sendNow } = useWaitingPlants({ send: true });
  const online = useOnline();
  const [used, setUsed] = useState<bigint[]>([]);
  const [saved, setSaved] = useState<Saved>();
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
    setSaved({ outcome, listBefore: plants });
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
        status={<SaveConfirmation saved={saved && lastPlantNow(saved, plants, sentSeqs)} signInHref={signInHref} />}
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

/** The last plant's outcome, and the waiting plants as they were listed when it came. */
type Saved = { outcome: SavedOutcome; listBefore: WaitingPlant[] | undefined };

/**
 * The last plant's outcome as it is now (issue 20). One kept in this browser
 * is followed while it waits: sent (by this page, another, or the service
 * worker), it is saved; refused when sent, it says so; gone from the list
 * otherwise (discarded, or sent with the news still on its way), nothing is
 * said of it. Until the list is read again after it was kept, it waits.
 */
function lastPlantNow({ outcome, listBefore }: Saved, plants: WaitingPlant[] | undefined, sentSeqs: readonly number[]): LastPlant | undefined {
  if (outcome.kind !== "kept") return outcome;
  if (sentSeqs.includes(outcome.seq)) return { kind: "stored", plant: outcome.plant, replayed: false };
  if (plants === listBefore) return outcome;
  const waiting = plants?.find((each) => each.seq === outcome.seq);
  if (!waiting) return undefined;
  return waiting.problem ? { kind: "refused when sent", plant: outcome.plant } : outcome;
}
