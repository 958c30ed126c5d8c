// Terminal output: rows as left-aligned columns separated by two spaces (the last column is not padded).

export function columns (rows: string[][]): string {
  const widths: number[] = []
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, cell.length) })
  return rows.map(r => r.map((c, i) => i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)).join('  ')).join('\n') + '\n'
}

/** Rows under a header line. */
export function table (header: string[], rows: string[][]): string {
  return columns([header, ...rows])
}
