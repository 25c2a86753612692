"use client";

import { useRef, useState } from "react";
import { PLANT_FIELD_LABELS } from "@/components/plants/plant-form";
import { fieldSentence } from "@/components/forms/sentence-resolver";
import type { SendingNews } from "@/lib/client/offline/use-waiting-plants";
import type { WaitingPlant } from "@/lib/validations/waiting-plant";

type WaitingPlantsListProps = {
  plants: WaitingPlant[] | undefined;
  lastSending: SendingNews | undefined;
  online: boolean;
  /** The waiting plant the form is changing, if any. */
  editingSeq: number | undefined;
  signInHref: string;
  onEdit(waiting: WaitingPlant): void;
  onDiscarded(waiting: WaitingPlant): void;
  onSendNow(): Promise<void>;
};

/**
 * The plants kept in this browser until they can be sent: each as typed,
 * and, for one the app refused, why, with the means to change it and send
 * it again, or to discard it. What sending did is announced; an ended
 * session asks for signing in again, after which the plants are sent.
 */
export function WaitingPlantsList({ plants, lastSending, online, editingSeq, signInHref, onEdit, onDiscarded, onSendNow }: WaitingPlantsListProps) {
  const [discarded, setDiscarded] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const count = plants?.length ?? 0;
  const waitingToSend = plants?.some((waiting) => !waiting.problem) ?? false;

  async function discard(waiting: WaitingPlant) {
    // Loaded already: the list was read through it.
    const { waitingPlants } = await import("@/lib/client/offline/waiting-plants");
    await waitingPlants.remove(waiting.seq);
    onDiscarded(waiting);
    setDiscarded(`Discarded ${describe(waiting)}.`);
    // Keyboard focus stays in the list while plants remain in it; otherwise it goes back to the form.
    if (count > 1) heading.current?.focus();
    else document.getElementById("plant-id")?.focus();
  }

  return (
    <>
      {/* Always in the page, so that what sending did is announced as it happens. */}
      <p className="sending-news" aria-live="polite">
        {lastSending && sendingSentence(lastSending)} {discarded}
      </p>
      {count > 0 && (
        <section id="waiting-plants" aria-labelledby="waiting-plants-heading">
          <h2 id="waiting-plants-heading" ref={heading} tabIndex={-1}>
            Waiting to send ({count})
          </h2>
          {lastSending?.stopped === "signed out" ? (
            <p className="notice">
              Your session has ended, so these plants were not sent. <a href={signInHref}>Sign in again</a>, and they will be sent.
            </p>
          ) : (
            <p className="hint">Kept in this browser, and sent by themselves when the connection returns.</p>
          )}
          <ul className="waiting-plants">
            {plants?.map((waiting) => (
              <WaitingPlantItem
                key={waiting.seq}
                waiting={waiting}
                editing={waiting.seq === editingSeq}
                onEdit={() => onEdit(waiting)}
                onDiscard={() => void discard(waiting)}
              />
            ))}
          </ul>
          {online && waitingToSend && (
            <button type="button" className="secondary" onClick={() => void onSendNow()}>
              Send now
            </button>
          )}
        </section>
      )}
    </>
  );
}

function WaitingPlantItem({ waiting, editing, onEdit, onDiscard }: { waiting: WaitingPlant; editing: boolean; onEdit(): void; onDiscard(): void }) {
  const { seq, problem } = waiting;
  const labelId = `waiting-plant-${seq}`;
  const reasons = problem
    ? [
        ...problem.fieldErrors.map(({ field, message }) => fieldSentence(message, field, PLANT_FIELD_LABELS)),
        ...(problem.formError ? [fieldSentence(problem.formError, null, PLANT_FIELD_LABELS)] : []),
      ]
    : [];
  return (
    <li className="waiting-plant">
      <p id={labelId} className="waiting-plant-name">
        {describe(waiting)}
      </p>
      {problem ? (
        <p className="field-error">Not stored: {reasons.join(" ")}</p>
      ) : (
        <p className="hint">Waiting to be sent.</p>
      )}
      <div className="waiting-plant-actions">
        {problem && (
          <button type="button" className="secondary" aria-describedby={labelId} onClick={onEdit} disabled={editing}>
            {editing ? "Changing it above" : "Change"}
          </button>
        )}
        <button type="button" className="danger" aria-describedby={labelId} onClick={onDiscard}>
          Discard
        </button>
      </div>
    </li>
  );
}

function describe({ plant: { id, name, tag } }: WaitingPlant): string {
  return `${name}${tag ? ` (${tag})` : ""}, id ${id}`;
}

function plants(count: number): string {
  return count === 1 ? "1 waiting plant" : `${count} waiting plants`;
}

function sendingSentence({ sent, refused, stopped }: SendingNews): string {
  const parts = [
    sent.length > 0 && `Sent ${plants(sent.length)}.`,
    refused > 0 && `The app refused ${plants(refused)}: see below.`,
    stopped === "unreachable" && "The server could not be reached; the rest wait for the connection to return.",
    stopped === "server" && "The server failed; the rest will be sent later.",
    stopped === "signed out" && "Your session has ended: sign in again to send the rest.",
  ];
  return parts.filter(Boolean).join(" ");
}
