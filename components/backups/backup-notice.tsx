import Link from "next/link";
import { LocalTime } from "@/components/shared/local-time";

/**
 * Tells owners, on every staff page, that the last scheduled backup failed
 * (issue 23), until one succeeds: the store is then less safe than they think,
 * and the reason is often one only they can act on (a full disk, a folder
 * that is gone).
 */
export function BackupNotice({ failure }: { failure: { failedAt: string; reason: string; lastSuccessAt: string | null } | null }) {
  if (!failure) return null;
  return (
    <div className="notice">
      <p>
        <strong>The last scheduled backup failed</strong> (<LocalTime date={failure.failedAt} />): {failure.reason}
      </p>
      <p>
        {failure.lastSuccessAt ? (
          <>
            The newest backup is from <LocalTime date={failure.lastSuccessAt} />.
          </>
        ) : (
          "No backup has succeeded yet."
        )}{" "}
        See <Link href="/backups">Backups</Link>; this notice stays until a backup succeeds.
      </p>
    </div>
  );
}
