// Go duration strings, as Cluster API sends them in ?timeout= (time.Duration.String: "10s", "1m30s", "500ms"), in
// the milliseconds the server's timers count: src/go/time.ts parses and prints them as Go does.
import { DurationError, durationString, parseDuration } from '../go/time.js'

/** Parses a non-negative Go duration into milliseconds; undefined when the string is not one or is negative. */
export function parseGoDuration (value: string): number | undefined {
  let ns: bigint
  try {
    ns = parseDuration(value)
  } catch (err) {
    if (err instanceof DurationError) return undefined
    throw err
  }
  return ns < 0n ? undefined : Number(ns) / 1e6
}

/** A duration in milliseconds as Go's time.Duration.String prints it: `10m0s`, `1h2m3s`, `1.5s`, `500ms`, `0s`. */
export function formatGoDuration (ms: number): string {
  return durationString(BigInt(Math.round(ms * 1e6)))
}
