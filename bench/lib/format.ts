// Number formats of the result tables.

/** req/s or calls/s: whole numbers from 100 up, one decimal below; em dash when not a number. */
export function formatRate (rate: number): string {
  if (!Number.isFinite(rate)) return '—'
  return rate >= 100 ? Math.round(rate).toLocaleString('en-US') : rate.toFixed(1)
}

/** Milliseconds with three significant digits at most (0.412, 4.12, 41.2, 412, 1,412). */
export function formatMs (ms: number): string {
  if (!Number.isFinite(ms)) return '—'
  const abs = Math.abs(ms)
  if (abs >= 1000) return Math.round(ms).toLocaleString('en-US')
  if (abs >= 100) return ms.toFixed(0)
  if (abs >= 10) return ms.toFixed(1)
  if (abs >= 1) return ms.toFixed(2)
  return ms.toFixed(3)
}

export function formatMb (mb: number | undefined): string {
  return mb === undefined || !Number.isFinite(mb) ? '—' : mb.toFixed(0)
}
