"use client";

import { useEffect, useRef } from "react";
import "swagger-ui-dist/swagger-ui.css";

/**
 * The API reference, rendered in the browser from the OpenAPI document the app
 * serves. swagger-ui-dist is Swagger UI prebuilt with all of its dependencies:
 * swagger-ui-react, bundled by Turbopack, fails on OpenAPI 3.1 documents
 * ("refract is not a function", swagger-api/swagger-ui#10599, vercel/next.js#86507).
 * Nothing is loaded from a CDN.
 */
export function ApiReference({ documentUrl }: { documentUrl: string }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    // Loaded on demand: the bundle is large and touches window as it loads.
    void import("swagger-ui-dist/swagger-ui-es-bundle.js").then(({ default: SwaggerUI }) => {
      if (cancelled || !container.current) return;
      SwaggerUI({ domNode: container.current, url: documentUrl, validatorUrl: null, docExpansion: "list", defaultModelsExpandDepth: 2 });
    });
    return () => {
      cancelled = true;
    };
  }, [documentUrl]);

  return <div ref={container} />;
}
