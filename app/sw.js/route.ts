import { serviceWorkerResponse } from "@/lib/http/service-worker-script";

// Built once, by `next build` (lib/http/service-worker-script.ts), and served as built.
export const dynamic = "force-static";

export const GET = serviceWorkerResponse;
