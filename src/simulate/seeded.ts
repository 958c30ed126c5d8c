// Randomness made repeatable: the five random characters of Kubernetes' generated names and the UIDs of the API
// server, derived from a seed (the Cluster's namespace and name) and a key, so that the same Cluster gets the same
// names and uids in every run.
import { createHash } from 'node:crypto'

const RANDOM_LENGTH = 5
/** Kubernetes' random-name alphabet (utilrand: no vowels, no confusable digits). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'

/** Five characters of Kubernetes' random-name alphabet, the same for the same seed and key. */
export type RandomSource = (key: string) => string

/** A RandomSource seeded by a string (the Cluster's namespace and name). */
export function seededRandom (seed: string): RandomSource {
  return (key: string) => {
    const digest = createHash('sha256').update(`${seed}\0${key}`).digest()
    return Array.from(digest.subarray(0, RANDOM_LENGTH), b => ALPHABET[b % ALPHABET.length]).join('')
  }
}

/** A UID in the API server's format, the same for the same seed. */
export function seededUid (seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}
