import type { SwaggerUIPlugin, SwaggerUISystem } from "swagger-ui-dist/swagger-ui-es-bundle.js";
import { restoreRoundedIntegers, roundedIntegers, type RoundedIntegers } from "@/lib/json/rounded-integers";

/**
 * Swagger UI reads the document into JavaScript numbers (with a YAML parser,
 * before any hook could step in), so the int64 bounds print as
 * -9223372036854776000 and 9223372036854776000: in every schema's range
 * ("[-9223372036854776000, 9223372036854776000]"), in the examples it makes
 * from the schemas (an id's example is its minimum), and in the request body
 * "Try it out" starts from, which would then send an id out of range.
 * /openapi.json itself is exact, and Swagger UI keeps its text (specStr). So
 * this plugin wraps the three components that print those numbers, and
 * rewrites what they print with the integers as the document's text has them
 * (lib/json/rounded-integers.ts). Only text changes; no number is parsed again.
 */
export const exactIntegersPlugin: SwaggerUIPlugin = ({ React }) => {
  const h = React.createElement;
  let known: { document: string; rounded: RoundedIntegers } | undefined;

  function exact(text: unknown, system: SwaggerUISystem): unknown {
    if (typeof text !== "string") return text;
    const document = system.specSelectors.specStr();
    if (known?.document !== document) known = { document, rounded: roundedIntegers(document) };
    return restoreRoundedIntegers(text, known.rounded);
  }

  type Props = Record<string, unknown>;
  return {
    wrapComponents: {
      // A schema keyword's constraint, such as a number's range: { scope, value: "[min, max]" }.
      JSONSchema202012KeywordConstraint: (Original, system) => (props: Props & { constraint?: { value?: unknown } }) =>
        h(Original, props.constraint ? { ...props, constraint: { ...props.constraint, value: exact(props.constraint.value, system) } } : props),
      // Example values and response bodies, given as the code's text.
      HighlightCode: (Original, system) => (props: Props) => h(Original, { ...props, children: exact(props.children, system) }),
      // The request body "Try it out" starts from (its example), which it then sends as written. Only the
      // example: what someone types is theirs, 9223372036854776000 included.
      RequestBodyEditor: (Original, system) => (props: Props) => h(Original, { ...props, defaultValue: exact(props.defaultValue, system) }),
    },
  };
};
