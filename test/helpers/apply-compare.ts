// Comparing typedPatchError with a real API server's answer to a server-side apply (what the e2e proof records and
// test/fixtures/apiserver/apply-answers.json keeps). A typed-conversion refusal must be the same message, byte for
// byte, once our walk visits each map's keys in the order the API server's message shows (Go's map order is random:
// it decides which undeclared field is reported and which errors come before it). Anything else the API server
// answered means the conversion went through: typedPatchError must say nothing, and createCustomResource (or
// updateCustomResource over the stored object) must accept what the API server accepted and refuse what it refused,
// with the same field errors.
import { compileSchema, createCustomResource, errorBody, type KeyOrder, type ResourceResult, typedPatchError, updateCustomResource } from '../../src/apiserver/index.js'
import { type ApplyCase, applyObject } from './apply-cases.js'

/** What the API server answered to one apply. */
export interface ApplyAnswer {
  code: number
  /** reason and message are the Status of a refusal. */
  reason?: string
  message?: string
  /** causes are the field errors of a refusal, as `field: message`. */
  causes?: string[]
  /** from is the stored object an update applied over (name and namespace its only metadata). */
  from?: Record<string, unknown>
}

/** The outcome of one comparison. */
export interface ApplyComparison {
  /** kind says what the API server did: refused the typed conversion, refused the object later, or accepted it. */
  kind: 'typed' | 'refused' | 'accepted' | 'other'
  equal: boolean
  /** sameOrder is true when our default visiting order gives the API server's very message. */
  sameOrder: boolean
  diffs: string[]
}

export const TYPED_PREFIX = 'failed to create typed patch object ('

/**
 * The visiting order a message shows: each map's keys in the order their paths appear (every path follows a space),
 * those it does not name after them in our default order. A map visited twice (the duplicates of a list-map) may show
 * its keys in another order the second time, as Go orders each walk of a map at random: the n-th visit of a path takes
 * the n-th appearance of its keys.
 */
export function orderShownBy (message: string): KeyOrder {
  const visits = new Map<string, number>()
  const position = (path: string, key: string, visit: number): number => {
    const needle = ` ${path}.${key}`
    let seen = -1
    let last = Number.MAX_SAFE_INTEGER
    for (let i = message.indexOf(needle); i >= 0; i = message.indexOf(needle, i + 1)) {
      if (!['.', '[', ':'].includes(message[i + needle.length] ?? '')) continue
      last = i
      if (++seen === visit) return i
    }
    return last
  }
  return (path, keys) => {
    const visit = visits.get(path) ?? 0
    visits.set(path, visit + 1)
    return keys.map((k, i) => ({ k, at: position(path, k, visit), i })).sort((a, b) => a.at - b.at || a.i - b.i).map(x => x.k)
  }
}

function ourResult (k: ApplyCase, from: Record<string, unknown> | undefined): ResourceResult {
  const schema = compileSchema(k.crd.schema)
  const options = { kind: k.crd.kind, group: k.crd.group, version: k.crd.version, namespaced: true, statusSubresource: k.crd.statusSubresource === true, serverSideApply: true }
  return from ? updateCustomResource(schema, applyObject(k), from, options) : createCustomResource(schema, applyObject(k), options)
}

function compareAdmission (k: ApplyCase, answer: ApplyAnswer, diffs: string[]): void {
  const ours = ourResult(k, answer.from)
  if (answer.code === 200 || answer.code === 201) {
    if (ours.errors.length > 0) diffs.push(`API server accepted, createCustomResource refused: ${ours.message ?? ''}`)
    return
  }
  if (ours.errors.length === 0) { diffs.push(`API server refused (${answer.code}), createCustomResource accepted: ${answer.message ?? ''}`); return }
  const theirs = [...answer.causes ?? []].sort()
  const mine = ours.errors.map(e => `${e.field}: ${errorBody(e)}`).sort()
  if (JSON.stringify(theirs) !== JSON.stringify(mine)) {
    diffs.push(`field errors differ:\n  API server: ${JSON.stringify(theirs)}\n  ours:       ${JSON.stringify(mine)}`)
  }
}

/** Compares typedPatchError (and, past the conversion, createCustomResource) with the API server's answer. */
export function compareApply (k: ApplyCase, answer: ApplyAnswer): ApplyComparison {
  const object = applyObject(k)
  const diffs: string[] = []
  const mine = typedPatchError(k.crd.schema, object)
  const message = answer.message ?? ''
  if (message.startsWith(TYPED_PREFIX)) {
    const replayed = typedPatchError(k.crd.schema, object, orderShownBy(message))
    if (replayed !== message) diffs.push(`typed conversion:\n  API server: ${message}\n  ours:       ${replayed ?? '(accepted)'}`)
    return { kind: 'typed', equal: diffs.length === 0, sameOrder: mine === message, diffs }
  }
  if (mine !== undefined) diffs.push(`API server converted it (${answer.code} ${message}), we refused: ${mine}`)
  const kind = answer.code === 200 || answer.code === 201 ? 'accepted' : answer.code === 422 ? 'refused' : 'other'
  if (kind === 'other') diffs.push(`API server answered ${answer.code} ${answer.reason ?? ''}: ${message}`)
  else compareAdmission(k, answer, diffs)
  return { kind, equal: diffs.length === 0, sameOrder: true, diffs }
}
