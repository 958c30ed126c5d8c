// Running a schema's x-kubernetes-validations over a value, as apiextensions' cel.Validator does: depth first, each
// node's rules (and those written in its allOf branches) with `self` typed from the node, `oldSelf` the correlated
// old value (same key in an object or map, same key fields in a list-type=map list; nothing for other lists), and
// the error built the same way: message, messageExpression (falling back to the message when it fails), fieldPath,
// reason, `failed rule: <rule>`, runtime errors. On update, an error of a rule that does not read oldSelf is dropped
// when the value under that rule did not change (validation ratcheting, on by default in 1.36).
//
// Order: Go visits map keys in random order; here an object's keys are visited in their order.
import { type FieldError, type FieldPath, childPath, duplicate, forbidden, indexPath, invalid, invalidOmitValue, keyPath, required } from '../field-error.js'
import type { Structural } from '../schema.js'
import { evaluate, Scope } from './eval.js'
import { type CompiledRule, compileRules } from './program.js'
import { toCel, withTypeAndObjectMeta } from './typing.js'
import { CelError, CelOptional, type Val } from './values.js'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The longest message a messageExpression may produce (celconfig.MaxEvaluatedMessageExpressionSizeBytes). */
const MAX_MESSAGE_BYTES = 5 * 1024

/** A new value and the old value it corresponds to (CorrelatedObject), for ratcheting. */
interface Correlation { value: unknown, old: unknown, schema: Structural }

function mapListKey (x: unknown, keys: readonly string[]): string | undefined {
  if (!isRecord(x)) return undefined
  return JSON.stringify(keys.map(k => x[k] ?? null))
}

/** The old item a new list item corresponds to: same key fields in a list-type=map list, none otherwise. */
function correlatedItem (s: Structural, oldList: unknown, item: unknown): unknown {
  if (s.listType !== 'map' || !s.listMapKeys?.length || !Array.isArray(oldList)) return undefined
  const key = mapListKey(item, s.listMapKeys)
  return key === undefined ? undefined : oldList.find(o => mapListKey(o, s.listMapKeys as string[]) === key)
}

/** reflect.DeepEqual of decoded JSON values. */
function deepEqual (a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
  if (isRecord(a)) {
    if (!isRecord(b)) return false
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every(k => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
  }
  return false
}

/** CorrelatedObject.CachedDeepEqual: whether the value is unchanged, list-type=map lists compared by key. */
function unchanged (c: Correlation | undefined): boolean {
  if (c === undefined) return false
  const { value, old, schema } = c
  if (value === null || value === undefined || old === null || old === undefined) return (value ?? null) === (old ?? null)
  if (Array.isArray(value) && Array.isArray(old)) {
    if (value.length !== old.length) return false
    if (schema.listType !== 'map' || !schema.items) return deepEqual(value, old)
    return value.every((v, i) => {
      const o = correlatedItem(schema, old, value[i])
      return o !== undefined && unchanged({ value: v, old: o, schema: schema.items as Structural })
    })
  }
  if (isRecord(value) && isRecord(old)) {
    const keys = Object.keys(value)
    if (keys.length !== Object.keys(old).length) return false
    return keys.every((k) => {
      const sub = schema.properties?.get(k) ?? schema.additionalProperties?.schema
      return Object.hasOwn(old, k) && sub !== undefined && unchanged({ value: value[k], old: old[k], schema: sub })
    })
  }
  if (Array.isArray(value) !== Array.isArray(old) || isRecord(value) !== isRecord(old)) return false
  return value === old
}

/** Evaluates a messageExpression; undefined when it fails (the rule's message is used then). */
function evalMessage (expr: CompiledRule['messageExpression'], scope: Scope): string | undefined {
  if (expr === undefined) return undefined
  const v = evaluate(expr, scope)
  if (typeof v !== 'string') return undefined
  const trimmed = v.trim()
  if (trimmed === '' || Buffer.byteLength(trimmed) > MAX_MESSAGE_BYTES || trimmed.includes('\n')) return undefined
  return trimmed
}

/** ruleErrorString: the rule's message, else the rule, trimmed. */
const ruleString = (r: CompiledRule) => (r.rule.message ?? '').length > 0 ? (r.rule.message as string).trim() : r.rule.rule.trim()

interface Context {
  /** ratchet is the correlation of this node with the old object on update (undefined on create). */
  correlation?: Correlation
  /** parent is the nearest correlated ancestor, used when this node has no correlation of its own. */
  parent?: Correlation
  update: boolean
}

function runRules (rules: readonly CompiledRule[], node: Structural, isResourceRoot: boolean, path: FieldPath, obj: unknown, oldObj: unknown, ctx: Context, errs: FieldError[]): void {
  if (rules.length === 0) return
  const sts = isResourceRoot ? withTypeAndObjectMeta(node) : node
  const self = toCel(obj, sts)
  const old = oldObj === null || oldObj === undefined ? undefined : toCel(oldObj, sts)
  const plain = new Scope(new Map<string, Val>([['self', self], ...(old !== undefined ? [['oldSelf', old] as [string, Val]] : [])]))
  const optional = new Scope(new Map<string, Val>([['self', self], ['oldSelf', old !== undefined ? new CelOptional(old) : CelOptional.NONE]]))
  const ratchet = ctx.update && unchanged(ctx.correlation ?? ctx.parent)
  for (const r of rules) {
    if (r.usesOldSelf && old === undefined && !r.optionalOldSelf) continue
    const result = evaluate(r.program, r.optionalOldSelf ? optional : plain)
    if (result instanceof CelError) {
      const detail = result.message.startsWith('no such overload')
        ? `'${result.message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleString(r)}`
        : `${result.message} evaluating rule: ${ruleString(r)}`
      errs.push(invalid(path, sts.type, detail))
      continue
    }
    if (result === true) continue
    const at = r.fieldPath !== undefined ? childPath(path, r.fieldPath) : path
    const detail = evalMessage(r.messageExpression, plain) ?? ((r.rule.message ?? '').length > 0 ? (r.rule.message as string).trim() : `failed rule: ${r.rule.rule.trim()}`)
    const omit = sts.type === 'object' || sts.type === 'array'
    let e: FieldError
    switch (r.rule.reason) {
      case 'FieldValueForbidden': e = forbidden(at, detail); break
      case 'FieldValueRequired': e = required(at, detail); break
      case 'FieldValueDuplicate': e = duplicate(at, obj, omit); break
      default: e = omit ? invalidOmitValue(at, detail) : invalid(at, obj, detail)
    }
    if (!r.usesOldSelf && ratchet) continue
    errs.push(e)
  }
}

function validateNode (node: Structural, isResourceRoot: boolean, path: FieldPath, obj: unknown, oldObj: unknown, ctx: Context, where: string, errs: FieldError[]): void {
  if (obj === null || obj === undefined) return
  runRules(compileRules(node, isResourceRoot, where), node, isResourceRoot, path, obj, oldObj, ctx, errs)
  node.allOf.forEach((branch, i) => {
    if (branch.validations.length === 0) return
    const rules = compileRules(node, isResourceRoot, `${where}.allOf[${i}]`, branch.validations)
    runRules(rules, node, isResourceRoot, path, obj, oldObj, { update: ctx.update, ...(ctx.parent ? { parent: ctx.parent } : {}) }, errs)
  })
  const nearest = ctx.correlation ?? ctx.parent
  const child = (value: unknown, old: unknown, schema: Structural | undefined): Context => {
    const correlated = ctx.update && ctx.correlation !== undefined && schema !== undefined && old !== undefined ? { value, old, schema } : undefined
    return { update: ctx.update, ...(correlated ? { correlation: correlated } : {}), ...(nearest ? { parent: nearest } : {}) }
  }
  if (Array.isArray(obj)) {
    const items = node.items
    if (!items) return
    obj.forEach((v, i) => {
      const old = correlatedItem(node, oldObj, v)
      validateNode(items, items.embeddedResource, indexPath(path, i), v, old, child(v, old, items), `${where}.items`, errs)
    })
  } else if (isRecord(obj)) {
    const correlatable = node.mapType === undefined || node.mapType === 'granular' || node.mapType === 'atomic'
    const oldMap = correlatable && isRecord(oldObj) ? oldObj : undefined
    const ap = node.additionalProperties?.schema
    if (ap) {
      for (const [k, v] of Object.entries(obj)) {
        const old = oldMap?.[k]
        validateNode(ap, ap.embeddedResource, keyPath(path, k), v, old, child(v, old, ap), `${where}.additionalProperties`, errs)
      }
    }
    for (const [k, v] of Object.entries(obj)) {
      const prop = node.properties?.get(k)
      if (!prop) continue
      const old = oldMap?.[k]
      validateNode(prop, prop.embeddedResource, childPath(path, k), v, old, child(v, old, prop), `${where}.properties[${k}]`, errs)
    }
  }
}

/**
 * Runs the schema's CEL rules over value (and oldValue, on update). path is where the value sits (undefined for a
 * whole object); isResourceRoot says the value is a Kubernetes object (self then has apiVersion, kind, metadata).
 */
export function validateRulesAt (schema: Structural, value: unknown, oldValue: unknown, path: FieldPath, isResourceRoot: boolean): FieldError[] {
  const errs: FieldError[] = []
  const update = oldValue !== undefined && oldValue !== null
  const ctx: Context = update ? { update, correlation: { value, old: oldValue, schema } } : { update }
  validateNode(schema, isResourceRoot, path, value, update ? oldValue : undefined, ctx, 'openAPIV3Schema', errs)
  return errs
}
