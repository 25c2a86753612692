import { operations } from "@/lib/api/operations";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { jsonResponse } from "@/lib/http/json-response";
import { notReadyBecause } from "@/lib/server/readiness";

export const dynamic = "force-dynamic";

// Readiness: send this instance requests? No while it shuts down, while its
// database does not answer, or while a migration is pending.
export const GET = apiRoute(operations.getReadiness, async () => {
  const reason = await notReadyBecause();
  if (reason) throw new ApiError("ServiceUnavailable", `not ready: ${reason}`);
  return jsonResponse({ status: "ready" });
});

export const { PUT, PATCH, POST, DELETE, OPTIONS } = otherMethods("/readyz");
