"use server";

import { revalidatePath } from "next/cache";
import { cookies } from "next/headers";
import { actionAttribution } from "@/lib/activity/action-attribution";
import { ACTIVITY_PATH } from "@/lib/activity/activity-search";
import { RestoreRefusedError, restorePlant } from "@/lib/activity/restore-plant";
import { requireOwner } from "@/lib/auth/sessions/require-staff";
import { FLASH_COOKIE, FLASH_SECONDS } from "@/lib/client/flash-message";

// The Activity page's action (issue 22), also a deleted plant's page's. A server action is a public
// endpoint: it checks, itself, that an owner is signed in (staff get a 404,
// as from the page); the server refuses one posted from another origin
// before it runs (lib/server/server-action-origin.ts). A refusal the owner
// can read (the id taken meanwhile) is answered as a sentence; anything else
// is a fault, and thrown.

/** What a restore did, in a sentence with the plant to open, or why it was refused. */
export type RestoreResult = { done: string; plantId: string; name: string } | { error: string } | null;

// A record's id as the page writes it: a positive decimal integer, one way.
const RECORD_ID = /^[1-9][0-9]{0,18}$/;
const INT64_MAX = 2n ** 63n - 1n;

/** Restores the plant a plant.deleted record keeps (the form's `record`), attributed to the owner. */
export async function restoreDeletedPlant(_previous: RestoreResult, form: FormData): Promise<RestoreResult> {
  return restoreFromForm(form);
}

/**
 * The same from the deleted plant's own page (issue 44). The page is drawn
 * again in this action's answer (revalidatePath), as the plant's page now: the
 * button and its outcome are gone with the deleted page, so the sentence is
 * left as a flash message for the page drawn (lib/client/flash-message.ts),
 * which says it in its status region. The cookie is the plant's URL's alone:
 * the Plants page, which shows flash messages too, never takes it, even when
 * no script removes it (a form posted without JavaScript).
 */
export async function restoreDeletedPlantOnItsPage(_previous: RestoreResult, form: FormData): Promise<RestoreResult> {
  const outcome = await restoreFromForm(form);
  if (outcome && "done" in outcome) {
    (await cookies()).set(FLASH_COOKIE, `Restored: ${outcome.name} is among the plants again.`, { path: `/plants/${outcome.plantId}`, maxAge: FLASH_SECONDS, sameSite: "strict" });
  }
  return outcome;
}

async function restoreFromForm(form: FormData): Promise<RestoreResult> {
  const owner = await requireOwner(ACTIVITY_PATH);
  const record = form.get("record");
  if (typeof record !== "string" || !RECORD_ID.test(record) || BigInt(record) > INT64_MAX) return { error: "This is not a record's id: reload the page and try again." };
  try {
    const { plant } = await restorePlant(BigInt(record), await actionAttribution(owner));
    revalidatePath(ACTIVITY_PATH);
    return { done: `Restored ${plant.name} (id ${plant.id}), as it was.`, plantId: String(plant.id), name: plant.name };
  } catch (error) {
    if (error instanceof RestoreRefusedError) return { error: error.message };
    throw error;
  }
}
