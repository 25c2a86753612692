import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "@/cli/run-cli";

/** node:util's parseArgs, strict, its complaints (an unknown flag, a missing value) turned into usage errors. */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
