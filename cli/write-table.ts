/** Writes `table` (its header row first) to stdout, each column as wide as its widest cell, two spaces apart. */
export function writeTable(table: string[][]): void {
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const row of table) process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()}\n`);
}
