/** Writes `table` (its header row first) to stdout, each column as wide as its widest cell, two spaces apart. */
export function writeTable(table: string[][]): void {
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const row of table) process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()}\n`);
}

/**
 * What a `list [--json]` command prints: with --json, `json` as one indented
 * JSON document; else `table` as writeTable lays it out, or the line `none`
 * where it has no rows under its header.
 */
export function writeList({ asJson, json, table, none }: { asJson: boolean; json: unknown; table: string[][]; none: string }): void {
  if (asJson) process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  else if (table.length <= 1) process.stdout.write(`${none}\n`);
  else writeTable(table);
}
