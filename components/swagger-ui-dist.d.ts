// swagger-ui-dist ships no types; this declares the one entry point and the options we use.
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  type SwaggerUIOptions = {
    domNode: HTMLElement;
    url: string;
    /** null: never send the document to the online validator (the reference works offline). */
    validatorUrl: string | null;
    docExpansion?: "list" | "full" | "none";
    defaultModelsExpandDepth?: number;
  };
  export default function SwaggerUIBundle(options: SwaggerUIOptions): unknown;
}
