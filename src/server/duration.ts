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
