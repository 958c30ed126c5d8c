// json-merge-patch's RFC 7386 patch generator, loaded on its own (the package's index also loads apply and merge)
// and typed here (the package ships no types).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const generate = require('json-merge-patch/lib/generate.js') as (before: unknown, after: unknown) => unknown

/** The RFC 7386 merge patch that turns `before` into `after`; undefined when they are equal. */
export function generateMergePatch (before: unknown, after: unknown): unknown {
  return generate(before, after)
}
