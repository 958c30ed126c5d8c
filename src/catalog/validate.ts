// Validation with messages that name the offending field. validate() never changes the value: no defaults, no
// coercion, no removal of unknown fields (callers' objects must pass through intact); requestReceiver() reads a request
// an extension received, in place, as Go's handler would read it; hookChecks() binds a hook's checks once, for serving.
//
// Cluster API's hooks are checked as Go's encoding/json decodes them into Cluster API's types (the decoders generated
// in decoder/*.generated.ts, rules in decoder/rules.ts): JSON types, integer ranges, the timestamps and base64 Go
// parses, nesting; nothing else, since Cluster API's own server and client check nothing else.
// - request (what Cluster API sends, or our client sends) and decode (an answer our client receives): what Go reads.
//   requestReceiver (an extension's) also hands the handler what Go's handler reads (see decoder/rules.ts: RECEIVE).
// - response (a handler's answer): what Go reads once JSON.stringify sent it, as the handler meant: status Success
//   or Failure, Cluster API's enumerations, patches that are base64 of JSON of their patchType, data JSON can carry.
// Hook groups of your own are checked against their JSON Schemas by Ajv, per direction (see schema-compiler.ts):
// - request: the validation markers and the fields always sent; unknown fields pass, and so does the status of
//   embedded objects, whatever it holds.
// - response: the markers and the fields the API requires (x-kubebuilder-required).
// - decode: JSON types, integer widths, base64; no bounds, no enums, null anywhere.
import type { ErrorObject, ValidateFunction } from 'ajv'
import type { TSchema } from 'typebox'
import { decodeProblem, receive } from './decoder/decode.js'
import { ANSWER, DECODE } from './decoder/rules.js'
import { fieldPath, formatKey } from './field-path.js'
import { goDecoder } from './decoder/hook-checkers.js'
import { type Direction, SchemaCompiler } from './schema-compiler.js'

export type { Direction } from './schema-compiler.js'

const compiled: Record<Direction, WeakMap<TSchema, ValidateFunction>> = { request: new WeakMap(), response: new WeakMap(), decode: new WeakMap() }
let compiler: SchemaCompiler | undefined

/** Whether a request or response passed a catalog's checks, and if not, why. */
export type ValidationResult = {
  /** valid is true: the body passed. */
  valid: true
} | {
  /** valid is false: the body did not pass. */
  valid: false
  /** message says what is wrong, with the field's path. */
  message: string
}

/** A request an extension received, with what its handler gets (see Catalog.receiveRequest). */
export type ReceivedRequest = {
  /** valid is true: the request passed. */
  valid: true
  /** request is what the handler gets. */
  request: unknown
} | {
  /** valid is false: the request did not pass. */
  valid: false
  /** message says what is wrong, with the field's path. */
  message: string
}

/** The checks of an extension's calls of one hook (see Catalog.hookChecks). */
export interface HookChecks {
  /** receive checks a request as receiveRequest does and returns what the handler gets. */
  receive: (body: unknown) => ReceivedRequest
  /** answer checks a handler's answer as validateResponse does (strict). */
  answer: (body: unknown) => ValidationResult
}

/** What the checks of a hook read of its catalog entry (a CatalogHook). */
interface CheckedHook {
  definition: { request: TSchema, response: TSchema }
  requestKind: string
  responseKind: string
  apiVersion: string
  goDecoded: boolean
}

/**
 * The two checks of an extension's calls of a hook, bound to it once: a request of one of Cluster API's hooks is read
 * as Go's handler reads it (requestReceiver); one of your own is checked and handed over as it is.
 */
export function hookChecks (hook: CheckedHook): HookChecks {
  const answer = hookCheck(hook, 'response')
  if (!hook.goDecoded) {
    const request = hookCheck(hook, 'request')
    return {
      receive: body => {
        const checked = request(body)
        return checked.valid ? { valid: true, request: body } : checked
      },
      answer
    }
  }
  const receive = requestReceiver(hook.definition.request)
  return {
    receive: body => {
      const received = receive(body)
      return 'message' in received ? { valid: false, message: received.message } : { valid: true, request: received.request }
    },
    answer
  }
}

/**
 * A hook's check in one direction, bound once: its schema's, and for a hook of your own the kind and apiVersion too
 * (Go's decoder reads them as any strings).
 */
export function hookCheck (hook: CheckedHook, direction: Direction): (body: unknown) => ValidationResult {
  const checkSchema = schemaCheck(direction === 'request' ? hook.definition.request : hook.definition.response, direction)
  const kind = direction === 'request' ? hook.requestKind : hook.responseKind
  return body => {
    const message = checkSchema(body)
    if (message) return { valid: false, message }
    if (hook.goDecoded) return { valid: true }
    const envelope = body as { kind?: string, apiVersion?: string }
    if (envelope.kind !== undefined && envelope.kind !== kind) return { valid: false, message: `kind: must be "${kind}", got ${JSON.stringify(envelope.kind)}` }
    if (envelope.apiVersion !== undefined && envelope.apiVersion !== hook.apiVersion) return { valid: false, message: `apiVersion: must be "${hook.apiVersion}", got ${JSON.stringify(envelope.apiVersion)}` }
    return { valid: true }
  }
}

/** A check of values against one schema in one direction: undefined when valid, else a message naming the field. */
type SchemaCheck = (value: unknown) => string | undefined

/** Validates a value against a schema in a direction; returns undefined when valid, else a message naming the field. */
export function validate (schema: TSchema, value: unknown, direction: Direction = 'request'): string | undefined {
  return schemaCheck(schema, direction)(value)
}

/** The check validate() makes, bound to its schema and direction once (what a served hook runs on every call). */
function schemaCheck (schema: TSchema, direction: Direction): SchemaCheck {
  const decoder = goDecoder(schema)
  if (decoder) {
    if (direction !== 'response') return value => decodeProblem(decoder, value, DECODE)
    return value => decodeProblem(decoder, value, ANSWER) ?? missingStatus(value)
  }
  // A hook of your own is compiled on its first check.
  let fn = compiled[direction].get(schema)
  if (!fn) {
    fn = (compiler ??= new SchemaCompiler()).compile(schema, direction)
    compiled[direction].set(schema, fn)
  }
  const valid = fn
  return value => valid(value) ? undefined : describe(valid.errors ?? [], value)
}

/** Go reads a missing status as "", which Cluster API's client refuses: a handler's answer must have one. */
function missingStatus (value: unknown): string | undefined {
  const status = (value as { status?: unknown }).status
  return status === undefined || status === null ? 'status: must be one of "Success", "Failure", got none' : undefined
}

/**
 * A request an extension received for one of Cluster API's hooks: checked as validate() checks it, and read as Go's
 * decoder reads it (null and fields left out become the zero values Go's handler sees; see decoder/rules.ts). Bound
 * to the request's schema once.
 */
function requestReceiver (schema: TSchema): (value: unknown) => { request: unknown } | { message: string } {
  const decoder = goDecoder(schema)
  if (!decoder) throw new Error('requestReceiver reads the requests of Cluster API\'s hooks only')
  return value => receive(decoder, value)
}

function describe (errors: ErrorObject[], root: unknown): string {
  // For a nullable field ajv reports both branches; the first non-null branch error is the useful one.
  const error = errors.find(e => e.keyword !== 'anyOf' && !(e.keyword === 'type' && e.params['type'] === 'null')) ?? errors[0]
  if (!error) return 'invalid value'
  const at = fieldPath(error.instancePath)
  const got = valueAt(root, error.instancePath)
  switch (error.keyword) {
    case 'required': {
      const missing = String(error.params['missingProperty'])
      return `${at ? `${at}.` : ''}${formatKey(missing)}: is required`
    }
    case 'type':
      return `${at || '(root)'}: must be ${[error.params['type']].flat().filter(t => t !== 'null').map(t => article(String(t))).join(' or ')}, got ${kindOf(got)}`
    case 'enum':
      return `${at}: must be one of ${(error.params['allowedValues'] as unknown[]).map(v => JSON.stringify(v)).join(', ')}, got ${preview(got)}`
    case 'maxLength':
      return `${at}: must be at most ${error.params['limit']} characters long`
    case 'minLength':
      return `${at}: must be at least ${error.params['limit']} characters long`
    case 'maxItems':
      return `${at}: must have at most ${error.params['limit']} items`
    case 'maxProperties':
      return `${at}: must have at most ${error.params['limit']} entries`
    case 'minimum':
    case 'maximum':
      return `${at}: must be ${error.params['comparison']} ${error.params['limit']}, got ${preview(got)}`
    case 'format':
      switch (error.params['format']) {
        case 'byte': return `${at}: must be standard base64 with padding`
        case 'int32': return `${at}: must be a 32-bit integer, got ${preview(got)}`
        case 'int64': return `${at}: must be a 64-bit integer, got ${preview(got)}`
        case 'date-time': return `${at}: must be an RFC 3339 date and time, got ${preview(got)}`
        default: return `${at}: must be a valid ${error.params['format']}`
      }
    case 'propertyNames':
      return `${at}: key ${preview(error.params['propertyName'])} is too long`
    default:
      return `${at || '(root)'}: ${error.message ?? 'is invalid'}`
  }
}

function valueAt (root: unknown, pointer: string): unknown {
  let value = root
  for (const raw of pointer ? pointer.slice(1).split('/') : []) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return value
}

function kindOf (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number'
  return article(typeof value)
}

function article (type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}

function preview (value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    // A value nested too deeply for JSON.stringify's recursion (or a BigInt).
    return kindOf(value)
  }
  return text.length > 64 ? `${text.slice(0, 61)}...` : text
}
