import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";

/**
 * zodResolver(schema), with the schema, zod and the resolver loaded when the
 * form first validates (the first change, or a submit) rather than with the
 * page: zod is about 30 kB of gzipped script, more than any form's own code,
 * and the page is of use before it is needed (issue 20). The schema stays the
 * one the server uses; `loadSchema` is a dynamic import() of its module.
 *
 * When the load fails (the connection dropped), the form says so where it
 * shows the server's refusals (errors.root.server) and nothing is submitted;
 * the next validation tries again. The offline page's chunks are kept by its
 * service worker (lib/client/offline/service-worker.ts), so it validates
 * without a connection.
 */
export function lazyZodResolver<Input extends FieldValues, Output>(loadSchema: () => Promise<z.ZodType<Output, Input>>): Resolver<Input, unknown, Output> {
  let loading: Promise<Resolver<Input, unknown, Output>> | undefined;
  return async (values, context, options) => {
    loading ??= Promise.all([import("@hookform/resolvers/zod"), loadSchema()]).then(([{ zodResolver }, schema]) => zodResolver(schema));
    let resolver: Resolver<Input, unknown, Output>;
    try {
      resolver = await loading;
    } catch {
      loading = undefined;
      // A form-wide error, which FieldErrors of any form may hold (TypeScript cannot see it through the generic).
      const errors: FieldErrors = { root: { server: { type: "unreachable", message: NOT_LOADED } } };
      return { values: {}, errors: errors as FieldErrors<Input> };
    }
    return resolver(values, context, options);
  };
}

const NOT_LOADED = "The form could not be checked: the server could not be reached. Check your connection and try again.";
