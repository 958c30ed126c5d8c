// Go duration strings, as Cluster API sends them in ?timeout= (time.Duration.String: "10s", "1m30s", "500ms").

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
const DURATION = /^([0-9]*(?:\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)/

/** Parses a non-negative Go duration into milliseconds; undefined when the string is not one. */
export function parseGoDuration (value: string): number | undefined {
  if (value === '0') return 0
  let rest = value.startsWith('+') ? value.slice(1) : value
  if (rest === '') return undefined
  let total = 0
  while (rest !== '') {
    const m = DURATION.exec(rest)
    if (!m || m[1] === '' || m[1] === '.') return undefined
    total += Number(m[1]) * (UNITS[m[2] as string] as number)
    rest = rest.slice(m[0].length)
  }
  return Number.isFinite(total) ? total : undefined
}

/** A duration in milliseconds as Go's time.Duration.String prints it: `10m0s`, `1h2m3s`, `1.5s`, `500ms`, `0s`. */
export function formatGoDuration (ms: number): string {
  if (ms === 0) return '0s'
  if (ms < 1000) return `${Number(ms.toFixed(6))}ms`
  const h = Math.floor(ms / 3_600_000)
  const m = Math.floor((ms % 3_600_000) / 60_000)
  const s = Number(((ms % 60_000) / 1000).toFixed(9))
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`
}
