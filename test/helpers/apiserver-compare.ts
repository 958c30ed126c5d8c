// Comparing src/apiserver with a real API server's answers: what the e2e proof records from kube-apiserver (and
// test/fixtures/apiserver/answers.json keeps) against what createCustomResource/updateCustomResource say. Objects are
// compared without metadata (the API server adds uid, managedFields…); refusals by their field errors, as a multiset
// (Go visits map keys in random order, so the API server's order varies) and then by the exact message.
import { compileSchema, createCustomResource, errorBody, type ResourceResult, updateCustomResource } from '../../src/apiserver/index.js'
import { caseObject, type ObjectCase } from './apiserver-cases.js'
import { GROUP, VERSION } from './apiserver-crds.js'

/** What the API server answered for one request. */
export interface Answer {
  code: number
  /** object is the stored (or dry-run) object, for an accepted request. */
  object?: Record<string, unknown>
  /** causes are the field errors of a refusal, as `field: message`. */
  causes?: string[]
  /** message is the Status message of a refusal. */
  message?: string
  /** warnings are the unknown-field warnings (fieldValidation=Warn), as the paths they name. */
  warnings: string[]
  /** from is the stored object an update started from. */
  from?: Record<string, unknown>
}

/** The outcome of one comparison. */
export interface Comparison {
  equal: boolean
  /** sameOrder is true when the refusal message is identical, error order included. */
  sameOrder: boolean
  diffs: string[]
}

const withoutMetadata = (o: Record<string, unknown> | undefined): Record<string, unknown> => {
  const { metadata: _, ...rest } = o ?? {}
  return rest
}

/** Our answer for a case: create, or update from the stored object. */
export function ourResult (k: ObjectCase, from?: Record<string, unknown>): ResourceResult {
  const schema = compileSchema(k.crd.schema)
  const options = { kind: k.crd.kind, group: GROUP, version: VERSION, namespaced: true, statusSubresource: k.crd.statusSubresource === true }
  return from ? updateCustomResource(schema, caseObject(k), from, options) : createCustomResource(schema, caseObject(k), options)
}

const sortedCopy = (xs: readonly string[]) => [...xs].sort()

/** Compares our result with the API server's answer. */
export function compare (ours: ResourceResult, answer: Answer): Comparison {
  const diffs: string[] = []
  const accepted = answer.code === 200 || answer.code === 201
  if (accepted) {
    if (ours.errors.length > 0) diffs.push(`API server accepted, we refused: ${ours.message ?? ''}`)
    const theirs = JSON.stringify(sortKeys(withoutMetadata(answer.object)))
    const mine = JSON.stringify(sortKeys(withoutMetadata(ours.object)))
    if (theirs !== mine) diffs.push(`stored object differs:\n  API server: ${theirs}\n  ours:       ${mine}`)
    if (JSON.stringify(sortedCopy(answer.warnings)) !== JSON.stringify(sortedCopy(ours.pruned))) {
      diffs.push(`pruned fields differ: API server warned ${JSON.stringify(answer.warnings)}, we pruned ${JSON.stringify(ours.pruned)}`)
    }
    return { equal: diffs.length === 0, sameOrder: true, diffs }
  }
  if (answer.code !== 422) {
    diffs.push(`API server answered ${answer.code}: ${answer.message ?? ''}`)
    return { equal: false, sameOrder: false, diffs }
  }
  if (ours.errors.length === 0) {
    diffs.push(`API server refused, we accepted: ${answer.message ?? ''}`)
    return { equal: false, sameOrder: false, diffs }
  }
  const mine = ours.errors.map(e => `${e.field}: ${errorBody(e)}`)
  const theirs = answer.causes ?? []
  const a = sortedCopy(theirs)
  const b = sortedCopy(mine)
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    const missing = a.filter(x => !b.includes(x))
    const extra = b.filter(x => !a.includes(x))
    diffs.push(`field errors differ:\n  only API server: ${JSON.stringify(missing)}\n  only ours:       ${JSON.stringify(extra)}`)
  }
  return { equal: diffs.length === 0, sameOrder: diffs.length === 0 && answer.message === ours.message, diffs }
}

function sortKeys (v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys)
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.keys(v).sort().map(k => [k, sortKeys((v as Record<string, unknown>)[k])]))
  return v
}

/** The details of the errors of a probe object: one per rule, in rule order (rules at one node run in order). */
export function probeDetails (causes: readonly string[]): string[] {
  return causes.map(c => c.replace(/^spec: Invalid value(: "object")?: /, ''))
}
