// json-merge-patch's RFC 7386 functions, each loaded on its own (the package's index loads them all) and typed here
// (the package ships no types).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const generate = require('json-merge-patch/lib/generate.js') as (before: unknown, after: unknown) => unknown
const apply = require('json-merge-patch/lib/apply.js') as (target: unknown, patch: unknown) => unknown

/** The RFC 7386 merge patch that turns `before` into `after`; undefined when they are equal. */
export function generateMergePatch (before: unknown, after: unknown): unknown {
  return generate(before, after)
}

/** `target` with an RFC 7386 merge patch applied; `target` may be changed in place, so pass a copy. */
export function applyMergePatch (target: unknown, patch: unknown): unknown {
  return apply(target, patch)
}
