import { LocalTime } from "@/components/shared/local-time";

/** Whether an endpoint receives events and, when not, why and since when. */
export function WebhookEndpointStatus({ enabled, disabledReason, disabledAt }: { enabled: boolean; disabledReason: string | null; disabledAt: Date | null }) {
  if (enabled) return <span className="badge badge-ok">Enabled</span>;
  return (
    <>
      <span className="badge badge-off">Disabled</span> ({disabledReason ?? "no reason recorded"}
      {disabledAt && (
        <>
          , <LocalTime date={disabledAt} />
        </>
      )}
      )
    </>
  );
}
