import type { ReactNode } from "react";
import { type ActorShown, ActorName } from "@/components/activity/actor-name";
import { LocalTime } from "@/components/shared/local-time";

// On the page of a plant that is no longer stored but has a history (issue
// 22): when it was deleted and by whom, or that no record says so.

type DeletedPlantNoticeProps = {
  /** The plant's delete, or null when its history does not end with one. */
  deletion: { at: Date; who: ActorShown } | null;
  linkToActivity: boolean;
  /** An owner's way to store the plant again, under the sentence. */
  restore?: ReactNode;
};

export function DeletedPlantNotice({ deletion, linkToActivity, restore }: DeletedPlantNoticeProps) {
  return (
    <div className="notice">
      {deletion ? (
        <p>
          This plant was deleted on <LocalTime date={deletion.at} /> by <ActorName actor={deletion.who} linkToActivity={linkToActivity} />. It is no longer among
          the plants; its history is below.
        </p>
      ) : (
        <p>
          This plant is no longer stored, and its history does not say who removed it: it was not deleted through the store (a program may have changed the database
          directly).
        </p>
      )}
      {restore}
    </div>
  );
}
