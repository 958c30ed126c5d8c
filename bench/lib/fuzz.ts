// Fuzzed hook bodies for the footprint scenario's storm: mutations of a valid request (truncated, bytes flipped, fields
// replaced by oversized or deeply nested values, garbage), reproducible from a seed (tools/harness/seeded-random.ts).
const JUNK = ['null', '[]', '{}', '"', '\u0000', '{"kind":', '1e999', '[[[[[[[[', 'true', '{"cluster":null}']

/** The i-th body of a storm built from `valid` (one in fifty is up to ~1 MB). */
export function fuzzedBody (valid: string, next: () => number): string {
  const pick = next()
  const at = Math.floor(next() * valid.length)
  if (pick < 0.2) return valid
  if (pick < 0.4) return valid.slice(0, at)
  if (pick < 0.6) return `${valid.slice(0, at)}${String.fromCharCode(Math.floor(next() * 128))}${valid.slice(at + 1)}`
  if (pick < 0.7) return JUNK[Math.floor(next() * JUNK.length)] as string
  if (pick < 0.8) return valid.replace('"name":', `"name":${'['.repeat(500)}1${']'.repeat(500)},"x":`)
  if (pick < 0.98) return valid.replace('"namespace":', `"annotations":{"a":"${'x'.repeat(Math.floor(next() * 64 * 1024))}"},"namespace":`)
  return valid.replace('"namespace":', `"annotations":{"a":"${'y'.repeat(Math.floor(next() * 1024 * 1024))}"},"namespace":`)
}
