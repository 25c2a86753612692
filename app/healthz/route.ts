import { operations } from "@/lib/api/operations";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { jsonResponse } from "@/lib/http/json-response";

export const dynamic = "force-dynamic";

// Liveness: the process answers. Nothing else is checked, so a database
// outage never gets a healthy process restarted.
export const GET = apiRoute(operations.getLiveness, async () => jsonResponse({ status: "ok" }));

export const { PUT, PATCH, POST, DELETE, OPTIONS } = otherMethods("/healthz");
