import type { ReactNode } from "react";
import { BackupNotice } from "@/components/backups/backup-notice";
import { LiveConnectionNotice } from "@/components/shared/live-connection-notice";
import { SiteHeader } from "@/components/site/site-header";
import { WebhookNotice } from "@/components/webhooks/webhook-notice";
import { currentStaff } from "@/lib/auth/sessions/require-staff";
import { failedScheduledBackup } from "@/lib/backup/backup-overview";
import { listEndpointsDisabledByApp } from "@/lib/webhooks/disabled-reason";

// The frame of every staff page. It only shows who is signed in, and to
// owners what only they manage: each page checks the session itself, since a
// layout is not re-run on every navigation.
export default async function StaffLayout({ children }: { children: ReactNode }) {
  const user = await currentStaff();
  const isOwner = user?.role === "owner";
  // Owners are told, wherever they are, of endpoints the app stopped sending to by itself.
  const disabledByApp = isOwner ? await listEndpointsDisabledByApp() : [];
  // And of a scheduled backup that failed, until one succeeds (a small file read, no query).
  const backupFailure = isOwner ? failedScheduledBackup() : null;
  return (
    <>
      <SiteHeader user={user} />
      <main id="main">
        {/* Whether the page follows the store's changes: said at the top, whichever page it is (issue 44). */}
        <LiveConnectionNotice />
        <BackupNotice failure={backupFailure} />
        <WebhookNotice endpoints={disabledByApp} />
        {children}
      </main>
    </>
  );
}
