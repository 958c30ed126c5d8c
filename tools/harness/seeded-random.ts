// The one seeded random number generator of the tests, the benchmarks and the corpus tools (mulberry32): a seed gives
// the same cases on every machine and Node version, which Math.random cannot.

/** A generator of numbers in [0, 1), the same sequence for the same seed. */
export function mulberry32 (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
