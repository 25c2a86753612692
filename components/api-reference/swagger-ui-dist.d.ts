// swagger-ui-dist ships no types; this declares the one entry point and the options we use.
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  type SwaggerUIOptions = {
    domNode: HTMLElement;
    url: string;
    /** null: never send the document to the online validator (the reference works offline). */
    validatorUrl: string | null;
    docExpansion?: "list" | "full" | "none";
    defaultModelsExpandDepth?: number;
    syntaxHighlight?: { activated: boolean; theme?: "agate" | "arta" | "monokai" | "nord" | "obsidian" | "tomorrow-night" | "idea" } | false;
    /** Plugins add or replace components; see components/api-reference/api-reference.tsx. */
    plugins?: SwaggerUIPlugin[];
    /** The name of the component (from a plugin, or "BaseLayout") that lays out the page. */
    layout?: string;
  };
  /** Called with Swagger UI's system, which carries the React and Immutable.js copies it renders with. */
  export type SwaggerUIPlugin = (system: { React: SwaggerUIReact; Im: { List(values: unknown): unknown } }) => {
    components?: Record<string, unknown>;
    /** Each wrapper is given the original component and the system, and returns the component to render in its place. */
    wrapComponents?: Record<string, (Original: unknown, system: SwaggerUISystem) => unknown>;
  };
  /** The parts of the running system a wrapper reads. */
  export type SwaggerUISystem = {
    /** specStr: the document's text exactly as it was loaded. */
    specSelectors: { specStr(): string };
  };
  /** The parts of Swagger UI's own bundled React a plugin needs (not the app's React). */
  export type SwaggerUIReact = {
    createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): unknown;
  };
  export default function SwaggerUIBundle(options: SwaggerUIOptions): unknown;
}
