import Link from "next/link";
import { LocalTime } from "@/components/shared/local-time";

type DisabledEndpoint = { id: string; url: string; disabledReason: string | null; disabledAt: Date | null };

/** Tells owners, on every staff page, which webhook endpoints the app disabled by itself (a 410 Gone, days of failures). */
export function WebhookNotice({ endpoints }: { endpoints: DisabledEndpoint[] }) {
  if (endpoints.length === 0) return null;
  return (
    <div className="notice">
      <p>
        <strong>{endpoints.length === 1 ? "Plant Store disabled a webhook endpoint" : `Plant Store disabled ${endpoints.length} webhook endpoints`}</strong>{" "}
        by itself: nothing is sent to {endpoints.length === 1 ? "it" : "them"} until an owner enables {endpoints.length === 1 ? "it" : "them"} again.
      </p>
      <ul>
        {endpoints.map((endpoint) => (
          <li key={endpoint.id}>
            <Link href={`/webhooks/${endpoint.id}`} className="url">
              {endpoint.url}
            </Link>
            : {endpoint.disabledReason ?? "no reason recorded"}
            {endpoint.disabledAt && (
              <>
                {" "}
                (<LocalTime date={endpoint.disabledAt} />)
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
