import { operations } from "@/lib/api/operations";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/http/error-catalogue";
import { jsonResponse } from "@/lib/http/json-response";
import { notReadyBecause } from "@/lib/server/readiness";

export const dynamic = "force-dynamic";

// Readiness: send this instance requests? No while it shuts down, while its
// database does not answer, or while a migration is pending.
export const GET = apiRoute(operations.getReadiness, async () => {
  const reason = await notReadyBecause();
  if (reason) throw new ApiError("ServiceUnavailable", `not ready: ${reason}`, { headers: { "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS) } });
  return jsonResponse({ status: "ready" });
});

export const { PUT, PATCH, POST, DELETE, OPTIONS } = otherMethods("/readyz");
