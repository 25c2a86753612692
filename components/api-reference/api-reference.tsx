"use client";

import { useEffect, useRef } from "react";
import type { SwaggerUIPlugin } from "swagger-ui-dist/swagger-ui-es-bundle.js";
import "swagger-ui-dist/swagger-ui.css";
import { exactIntegersPlugin } from "@/components/api-reference/exact-integers-plugin";
import "./api-reference.css";

/**
 * The API reference, rendered in the browser from the OpenAPI document the app
 * serves. swagger-ui-dist is Swagger UI prebuilt with all of its dependencies:
 * swagger-ui-react, bundled by Turbopack, fails on OpenAPI 3.1 documents
 * ("refract is not a function", swagger-api/swagger-ui#10599, vercel/next.js#86507).
 * Nothing is loaded from a CDN.
 *
 * Swagger UI reads numbers as JavaScript does, so int64 bounds would show
 * rounded; exactIntegersPlugin shows them as the document has them.
 *
 * It is mounted inside the page's one <main> (app/docs/page.tsx), so it must not
 * bring landmarks or skip heading levels of its own: see referenceLayout and
 * nameResponseRegions below, and api-reference.css for colours that meet WCAG
 * AA contrast.
 */
export function ApiReference({ documentUrl }: { documentUrl: string }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    const root = container.current;
    const observer = new MutationObserver(() => {
      if (!root) return;
      nameResponseRegions(root);
      focusableCodeBlocks(root);
    });
    if (root) observer.observe(root, { childList: true, subtree: true });
    // Loaded on demand: the bundle is large and touches window as it loads.
    void import("swagger-ui-dist/swagger-ui-es-bundle.js").then(({ default: SwaggerUI }) => {
      if (cancelled || !container.current) return;
      SwaggerUI({
        domNode: container.current,
        url: documentUrl,
        validatorUrl: null,
        docExpansion: "list",
        defaultModelsExpandDepth: 2,
        // The default theme, agate, colours JSON strings #d36363 on #333 (3.5:1); monokai's all reach 4.5:1 (measured with axe).
        syntaxHighlight: { activated: true, theme: "monokai" },
        // Ids are int64: the bounds shown exactly, not as JavaScript prints the doubles they become.
        plugins: [referenceLayout, exactIntegersPlugin],
        layout: "ReferenceLayout",
      });
    });
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [documentUrl]);

  return <div ref={container} className="api-reference" />;
}

// Swagger UI 5's BaseLayout wraps the operations in <main id="operations">: a
// second main landmark, nested in the page's own (axe: landmark-main-is-top-level,
// landmark-no-duplicate-main). And it follows the document's <h1> title with an
// <h3> per tag (axe: heading-order). Swagger UI's supported way to change that is
// a custom layout, given by a plugin and picked with the `layout` option. This one
// is BaseLayout (swagger-ui 5.35.0, src/core/components/layouts/base.jsx) with
// two changes: the operations sit in a <div>, under an <h2> "Operations".
// It is rendered by Swagger UI's own bundled React, hence createElement from the
// system rather than JSX. Until a document has loaded (loading, failed, none),
// BaseLayout itself is shown: it has no landmarks in those states.
type Selectors = {
  loadingStatus(): string | undefined;
  specStr(): string;
  servers(): unknown;
  schemes(): unknown;
  securityDefinitions(): unknown;
  isSwagger2(): boolean;
  isOAS3(): boolean;
  isOAS31(): boolean;
  /** Newer than some 5.x releases. */
  isOAS32?(): boolean;
};
type LayoutProps = { getComponent: (name: string, container?: boolean) => unknown; specSelectors: Selectors };
type Webhook = { method: string; operation: unknown; specPath: unknown };
type WebhooksProps = LayoutProps & { specSelectors: { selectWebhooksOperations?(): Record<string, Webhook[]> | null } };

const referenceLayout: SwaggerUIPlugin = ({ React, Im }) => {
  const h = React.createElement;

  // Swagger UI's own Webhooks puts each event's operation right under its <h2>,
  // so the <h4>s of an opened one (and of the schemas after it) skip a level
  // (axe: heading-order). The same, with an <h3> over the events, as a tag
  // section has over its operations.
  function ReferenceWebhooks({ getComponent, specSelectors }: WebhooksProps) {
    const byName = specSelectors.selectWebhooksOperations?.();
    const names = Object.keys(byName ?? {});
    if (!byName || names.length === 0) return null;
    const Operation = getComponent("OperationContainer", true);
    return h(
      "div",
      { className: "webhooks" },
      h("h2", { className: "reference-heading wrapper" }, "Webhooks"),
      h("h3", { className: "opblock-tag no-desc" }, "Events sent to webhook endpoints"),
      names.flatMap((name) =>
        (byName[name] ?? []).map((webhook) =>
          h(Operation, {
            key: `${name}-${webhook.method}`,
            op: webhook.operation,
            tag: "webhooks",
            method: webhook.method,
            path: name,
            specPath: Im.List(webhook.specPath),
            allowTryItOut: false,
          }),
        ),
      ),
    );
  }

  function ReferenceLayout({ getComponent, specSelectors: spec }: LayoutProps) {
    const loading = spec.loadingStatus();
    if (!spec.specStr() || loading === "loading" || loading === "failed" || loading === "failedConfig") {
      return h(getComponent("BaseLayout", true));
    }
    const Row = getComponent("Row");
    const Col = getComponent("Col");
    const Errors = getComponent("errors", true);
    const size = (list: unknown) => (list as { size?: number } | undefined)?.size;
    const hasServers = size(spec.servers());
    const hasSchemes = size(spec.schemes());
    const hasSecurity = !!spec.securityDefinitions();
    return h(
      "div",
      { className: "swagger-ui" },
      h(getComponent("SvgAssets")),
      h(
        getComponent("VersionPragmaFilter"),
        { isSwagger2: spec.isSwagger2(), isOAS3: spec.isOAS3(), isOAS31: spec.isOAS31(), isOAS32: spec.isOAS32?.(), alsoShow: h(Errors) },
        h(Errors),
        h(Row, { className: "information-container" }, h(Col, { mobile: 12 }, h(getComponent("InfoContainer", true)))),
        hasServers || hasSchemes || hasSecurity
          ? h(
              "div",
              { className: "scheme-container" },
              h(
                Col,
                { className: "schemes wrapper", mobile: 12 },
                hasServers || hasSchemes
                  ? h(
                      "div",
                      { className: "schemes-server-container" },
                      hasServers ? h(getComponent("ServersContainer", true)) : null,
                      hasSchemes ? h(getComponent("SchemesContainer", true)) : null,
                    )
                  : null,
                hasSecurity ? h(getComponent("AuthorizeBtnContainer", true)) : null,
              ),
            )
          : null,
        h(getComponent("FilterContainer", true)),
        h(
          "div",
          { id: "operations" },
          h("h2", { className: "reference-heading wrapper" }, "Operations"),
          h(Row, null, h(Col, { mobile: 12, desktop: 12 }, h(getComponent("operations", true)))),
          spec.isOAS31() || spec.isOAS32?.()
            ? h(Row, { className: "webhooks-container" }, h(Col, { mobile: 12, desktop: 12 }, h(getComponent("ReferenceWebhooks", true))))
            : null,
          h(Row, null, h(Col, { mobile: 12, desktop: 12 }, h(getComponent("Models", true)))),
        ),
      ),
    );
  }
  // "Try it out" edits a request body in a bare <textarea> (axe: label). Its
  // TextArea component passes props through, so the body editor's gets a name.
  const wrapComponents = {
    TextArea: (TextArea: unknown) => (props: { className?: string }) =>
      h(TextArea, props.className?.split(" ").includes("body-param__text") ? { "aria-label": "Request body", ...props } : props),
  };
  return { components: { ReferenceLayout, ReferenceWebhooks }, wrapComponents };
};

// Each open operation's responses table is a role="region" with no name, so
// two open operations make two landmarks nobody can tell apart (axe:
// landmark-unique). Swagger UI has no option or component for that table's
// attributes, so this names each one after its operation ("GET /plants
// responses") as it appears: Swagger UI adds and drops the tables as
// operations open and close, and a MutationObserver sees each one arrive.
function nameResponseRegions(root: HTMLElement) {
  for (const table of root.querySelectorAll(".responses-table[role=region]:not([aria-label])")) {
    const operation = table.closest(".opblock");
    const method = operation?.querySelector(".opblock-summary-method")?.textContent;
    const path = operation?.querySelector(".opblock-summary-path")?.textContent;
    if (method && path) table.setAttribute("aria-label", `${method} ${path} responses`);
  }
}

// An example too long for its box scrolls inside it (Swagger UI caps its
// height), and a region that scrolls must be reachable by keyboard (axe:
// scrollable-region-focusable; WCAG 2.1.1). Swagger UI offers no option for
// its <pre>'s attributes, so each gets tabindex as it appears.
function focusableCodeBlocks(root: HTMLElement) {
  for (const block of root.querySelectorAll<HTMLElement>(".highlight-code > pre:not([tabindex])")) block.tabIndex = 0;
}
