// What Go's encoding/json does with each kind of Cluster API field, for the decoders generated from Cluster API's
// types (*.generated.ts, written by tools/decoders.ts): the JSON type each Go type takes, integer ranges,
// the parsers Go runs (metav1.Time, IntOrString, base64 for []byte), nesting depth, and Go's error messages.
//
// A checker gets a value that is neither null nor undefined (Go leaves the zero value for null; an undefined field is
// never sent) and the depth the value has if it is an object or array (the root is 1). It returns a Problem or
// undefined. Like Go's decoder, a type mismatch is remembered while decoding goes on ("soft"); an error of a parser
// (a timestamp, an int-or-string) or of nesting stops it ("hard"): the first hard problem wins, else the first soft one.
import type { PathKey } from '../field-path.js'
import { decodeAccepted as goBase64Decode, decodeError as goBase64Error } from '../../go/base64.js'
import { rfc3339Error as goTimeError } from '../../go/time.js'

/** What the value is checked for. */
export type Mode = typeof DECODE | typeof RECEIVE | typeof ANSWER
/** A value read from the wire, or about to be sent: what Go's decoder accepts. */
export const DECODE = 0
/**
 * A request an extension received, about to reach its handler: checked like DECODE, and read the way Go reads it
 * into the handler's types, in place (see nullField and fillMissing).
 */
export const RECEIVE = 1
/** A handler's answer: what Go's decoder accepts once JSON.stringify sent it, read as the handler meant (see answer rules below). */
export const ANSWER = 2

/** Go refuses JSON nested deeper than this (encoding/json's maxNestingDepth). */
export const MAX_DEPTH = 10000

export interface Problem {
  /** The keys from the value to the checked root, innermost first (at() appends while the checkers return). */
  path: PathKey[]
  message: string
  hard: boolean
  /** depth marks nesting beyond MAX_DEPTH: Go refuses it before decoding anything, so it outranks every other problem. */
  depth?: true
}

export type Checker = (value: unknown, mode: Mode, depth: number) => Problem | undefined

function problem (message: string, hard = false): Problem {
  return { path: [], message, hard }
}

/** The problem, one field or list index further from the root. */
export function at (p: Problem, key: string | number): Problem {
  p.path.push(key)
  return p
}

/** The problem, one map key further from the root (a key of data, not a field: messages bracket it). */
export function atKey (p: Problem, key: string): Problem {
  p.path.push({ mapKey: key })
  return p
}

/**
 * A field received as null. Go leaves its zero value; a typed handler must get a value of its type too: a field Go
 * always sends gets that zero value (`zeros` maps it to a factory), another one is removed (maps to null, as if it
 * had not been sent, which is how Go sends a zero value it may omit). A field that may be null, or one Go does not
 * know, keeps its null.
 */
export function nullField (o: Record<string, unknown>, key: string, zeros: ReadonlyMap<string, (() => unknown) | null>): void {
  const zero = zeros.get(key)
  if (zero === undefined) return
  if (zero === null) delete o[key]
  else o[key] = zero()
}

/**
 * The fields Go always sends, given their zero value when a received request left them out (Go reads them as zero):
 * `required` holds each field's name followed by its zero value's factory.
 */
export function fillMissing (o: Record<string, unknown>, required: ReadonlyArray<string | (() => unknown)>): void {
  for (let i = 0; i < required.length; i += 2) {
    const key = required[i] as string
    if (o[key] === undefined) o[key] = (required[i + 1] as () => unknown)()
  }
}

/** What Go names the JSON type of a value in its errors (a handler's answer may hold others: bigint, function, ...). */
function jsonKind (value: unknown): string {
  if (Array.isArray(value)) return 'array'
  return typeof value === 'boolean' ? 'bool' : typeof value
}

/** Go's UnmarshalTypeError, without the struct context (the path tells where). */
export function mismatch (value: unknown, goType: string, hard = false): Problem {
  return problem(`json: cannot unmarshal ${jsonKind(value)} into Go value of type ${goType}`, hard)
}

export function str (value: unknown, goType = 'string'): Problem | undefined {
  return typeof value === 'string' ? undefined : mismatch(value, goType)
}

export function bool (value: unknown): Problem | undefined {
  return typeof value === 'boolean' ? undefined : mismatch(value, 'bool')
}

/** A string of an enumeration: any string on the wire; a handler must answer one of Cluster API's values. */
export function enumStr (value: unknown, goType: string, values: ReadonlySet<string>, mode: Mode): Problem | undefined {
  if (typeof value !== 'string') return mismatch(value, goType)
  if (mode === ANSWER && !values.has(value)) return problem(`must be one of ${[...values].map(v => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`, true)
  return undefined
}

const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1
const INT64_LIMIT = 2 ** 63

function outOfRange (value: number, goType: string, hard: boolean): Problem {
  return problem(`json: cannot unmarshal number ${String(value)} into Go value of type ${goType}`, hard)
}

export function int32 (value: unknown): Problem | undefined {
  if (typeof value !== 'number') return mismatch(value, 'int32')
  return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX ? undefined : outOfRange(value, 'int32', false)
}

/**
 * An int64 is read exactly up to 2^53 - 1: beyond it a JavaScript number holds another integer than the one sent, so
 * a request is refused there (a difference from Cluster API, see docs/differences.md). A handler's answer is sent as the number
 * it holds, which Go reads exactly.
 */
export function int64 (value: unknown, mode: Mode): Problem | undefined {
  if (typeof value !== 'number') return mismatch(value, 'int64')
  if (Number.isSafeInteger(value)) return undefined
  if (!Number.isInteger(value) || value < -INT64_LIMIT || value >= INT64_LIMIT) return outOfRange(value, 'int64', false)
  if (mode === ANSWER) return undefined
  return problem(`number ${String(value)} is beyond the integers a JavaScript number holds exactly (±${Number.MAX_SAFE_INTEGER}): ` +
    'Go would read it as an int64, runtime-sdk refuses it', true)
}

/** metav1.Time: a string Go's time.Parse(time.RFC3339, ...) reads; its UnmarshalJSON stops decoding on an error. */
export function time (value: unknown): Problem | undefined {
  if (typeof value !== 'string') return mismatch(value, 'string', true)
  const error = goTimeError(value)
  return error === undefined ? undefined : problem(error, true)
}

/** intstr.IntOrString: any string, or what Go decodes into an int32; its UnmarshalJSON stops decoding on an error. */
export function intOrString (value: unknown): Problem | undefined {
  if (typeof value === 'string') return undefined
  const p = int32(value)
  if (p !== undefined) p.hard = true
  return p
}

/** []byte: standard base64 with padding, or (as Go's decoder allows) an array of integers 0 to 255. */
export function bytes (value: unknown): Problem | undefined {
  if (typeof value === 'string') {
    const error = goBase64Error(value)
    return error === undefined ? undefined : problem(error)
  }
  if (!Array.isArray(value)) return mismatch(value, '[]uint8')
  let first: Problem | undefined
  for (let i = 0; i < value.length; i++) {
    const x: unknown = value[i]
    if (x === null || x === undefined) continue
    const p = typeof x !== 'number' ? mismatch(x, 'uint8') : Number.isInteger(x) && x >= 0 && x <= 255 ? undefined : outOfRange(x, 'uint8', false)
    if (p !== undefined) first ??= at(p, i)
  }
  return first
}

/** Nesting beyond MAX_DEPTH, in Go's words: the character that opened one level too many. */
export function tooDeep (container: unknown): Problem {
  return { path: [], message: `invalid character '${Array.isArray(container) ? '[' : '{'}' exceeded max depth`, hard: true, depth: true }
}

/**
 * Any JSON (runtime.RawExtension, apiextensions' JSON, FieldsV1, fields Go does not know): Go keeps it as it is,
 * nested at most MAX_DEPTH deep. A handler's answer must also be data JSON.stringify sends as it is.
 */
export function anyJSON (value: unknown, mode: Mode, depth: number): Problem | undefined {
  if (mode === ANSWER) return answerData(value, depth)
  if (typeof value !== 'object' || value === null) return undefined
  const deep = deepest(value, depth, RECURSION)
  return deep === undefined ? undefined : tooDeep(deep)
}

/** A container nested deeper than MAX_DEPTH in a value whose root is at depth 1, or undefined. */
export function deepestContainer (value: object): object | undefined {
  return deepest(value, 1, RECURSION)
}

/** Levels walked by recursion (the fastest walk) before a walk goes on with a stack of its own. */
const RECURSION = 200

/** A container nested deeper than MAX_DEPTH within `container`, which is at `depth`; undefined when there is none. */
function deepest (container: object, depth: number, recursion: number): object | undefined {
  if (depth > MAX_DEPTH) return container
  if (recursion === 0) return deepestIteratively(container, depth)
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) {
      const child: unknown = container[i]
      if (typeof child === 'object' && child !== null) {
        const deep = deepest(child, depth + 1, recursion - 1)
        if (deep !== undefined) return deep
      }
    }
    return undefined
  }
  for (const key in container) {
    const child = (container as Record<string, unknown>)[key]
    if (typeof child === 'object' && child !== null) {
      const deep = deepest(child, depth + 1, recursion - 1)
      if (deep !== undefined) return deep
    }
  }
  return undefined
}

function deepestIteratively (root: object, rootDepth: number): object | undefined {
  // Pairs of a container and its depth.
  const stack: unknown[] = [root, rootDepth]
  while (stack.length > 0) {
    const depth = stack.pop() as number
    const container = stack.pop() as Record<string, unknown>
    if (depth > MAX_DEPTH) return container
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) {
        const child: unknown = container[i]
        if (typeof child === 'object' && child !== null) stack.push(child, depth + 1)
      }
    } else {
      for (const key in container) {
        const child = container[key]
        if (typeof child === 'object' && child !== null) stack.push(child, depth + 1)
      }
    }
  }
  return undefined
}

/** A handler's free-form value: no number JSON cannot carry (NaN, Infinity become null), no BigInt (stringify throws). */
function answerData (value: unknown, depth: number, path: PathKey[] = []): Problem | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return { path: path.slice(), message: `${String(value)} cannot be sent as JSON (it would arrive as null)`, hard: true }
  if (typeof value === 'bigint') return { path: path.slice(), message: 'a BigInt cannot be sent as JSON', hard: true }
  if (typeof value !== 'object' || value === null) return undefined
  if (depth > MAX_DEPTH) return tooDeep(value)
  for (const key in value) {
    path.unshift(Array.isArray(value) ? Number(key) : { mapKey: key })
    const p = answerData((value as Record<string, unknown>)[key], depth + 1, path)
    path.shift()
    if (p !== undefined) return p
  }
  return undefined
}

/**
 * A key that is not a field of the struct. Go matches keys to fields case-insensitively: a key that differs from a
 * field name only in letter case is refused, so that a handler never misses a field Go would read (a difference from
 * Cluster API, see docs/differences.md). Any other key is ignored, like Go does, once its nesting is checked.
 */
export function unknownField (key: string, value: unknown, folded: ReadonlyMap<string, string>, mode: Mode, depth: number): Problem | undefined {
  const field = folded.get(goFold(key))
  if (field !== undefined) {
    return problem(`key differs from field ${JSON.stringify(field)} only in letter case: Go would read it as that field, runtime-sdk refuses it`, true)
  }
  return anyJSON(value, mode, depth)
}

/** Go's foldName: ASCII upper case, and the two non-ASCII letters whose case folding reaches ASCII (ſ and the Kelvin sign). */
function goFold (key: string): string {
  let out = ''
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    out += c >= 0x61 && c <= 0x7a ? String.fromCharCode(c - 0x20) : c === 0x17f ? 'S' : c === 0x212a ? 'K' : key[i]
  }
  return out
}

/**
 * What patchContent found of recent patches: handlers answer the same patches call after call (Cluster API asks
 * again every reconcile). At most 256 patches of at most 4 KB each are remembered.
 */
const patchVerdicts = new Map<string, string | null>()
const PATCH_VERDICTS = 256
const REMEMBERED_PATCH_LENGTH = 4096

/**
 * A patch a handler answers (GeneratePatches' items, the in-place hooks' patches) as Cluster API applies it: a
 * patchType (its value is checked as an enumeration), and a patch that is base64 of JSON of that type (a JSON Patch
 * is an array of operations, a JSON merge patch an object; an empty merge patch changes nothing).
 */
export function patchContent (patch: Record<string, unknown>): Problem | undefined {
  const { patchType, patch: encoded } = patch
  if (patchType !== 'JSONPatch' && patchType !== 'JSONMergePatch') return at(problem('must be one of "JSONPatch", "JSONMergePatch", got none', true), 'patchType')
  const key = typeof encoded === 'string' && encoded.length <= REMEMBERED_PATCH_LENGTH ? `${patchType}:${encoded}` : undefined
  let verdict = key === undefined ? undefined : patchVerdicts.get(key)
  if (verdict === undefined) {
    verdict = patchProblem(patchType, typeof encoded === 'string' ? goBase64Decode(encoded) : Buffer.from(Array.isArray(encoded) ? encoded as number[] : []))
    if (key !== undefined) {
      if (patchVerdicts.size >= PATCH_VERDICTS) patchVerdicts.clear()
      patchVerdicts.set(key, verdict)
    }
  }
  return verdict === null ? undefined : at(problem(verdict, true), 'patch')
}

/** Why the bytes are not a patch of the type, or null. */
function patchProblem (patchType: 'JSONPatch' | 'JSONMergePatch', bytes: Buffer): string | null {
  if (bytes.length === 0 && patchType === 'JSONMergePatch') return null
  const wanted = patchType === 'JSONPatch' ? 'a JSON Patch: a JSON array of operation objects' : 'a JSON merge patch: a JSON object'
  let content: unknown
  try {
    content = JSON.parse(bytes.toString('utf8'))
  } catch {
    return `must be base64 of ${wanted}; it decodes to ${bytes.length === 0 ? 'nothing' : 'text that is not JSON'}`
  }
  const fits = patchType === 'JSONPatch'
    ? Array.isArray(content) && content.every(op => typeof op === 'object' && op !== null && !Array.isArray(op))
    : typeof content === 'object' && content !== null && !Array.isArray(content)
  if (fits) return null
  const found = Array.isArray(content) ? (patchType === 'JSONPatch' ? 'an array holding a non-object' : 'an array') : content === null ? 'null' : `a JSON ${typeof content}`
  return `must be base64 of ${wanted}; it decodes to ${found}`
}
