/** What bench modules return and how the runner prints it, plus the statistics they share. */

/** One printed table: a title, column names, rows, and notes under it. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  notes?: string[];
}

/** Median, or another percentile, of a sample (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Milliseconds with one decimal. */
export const ms = (value: number) => Math.round(value * 10) / 10;

/** A Markdown table with its notes under it. */
export function formatTable(table: BenchTable): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map(String))];
  const widths = table.columns.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    `\n${table.title}`,
    line(table.columns),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
    ...(table.notes ?? []).map((note) => `  ${note}`),
  ].join('\n');
}
