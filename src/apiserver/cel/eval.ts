// The evaluator: walks the parsed tree with cel-go's runtime semantics. Errors are values (so `false && error` is
// false and `all()` can skip a failing element once the result is known); && and || evaluate left to right and stop
// at a deciding value; comprehensions stop when their loop condition is not true; optional selection and indexing
// chain (`a.?b.c` is optional throughout). Functions come from the registry in functions.ts.
import { spend } from '../../budget/index.js'
import { lookupFunction } from './functions.js'
import type { Expr } from './parse.js'
import { index, keyString, select } from './access.js'
import { CelError, CelList, CelMap, CelOptional, CelType, isMapKey, noSuchOverload, typeName, type MapKey, type Val } from './values.js'

/** Variables visible to an expression: the declared ones (self, oldSelf) and comprehension variables. */
export class Scope {
  constructor (private readonly vars: ReadonlyMap<string, Val>, private readonly parent?: Scope) {}
  get (name: string): Val | undefined {
    return this.vars.has(name) ? this.vars.get(name) : this.parent?.get(name)
  }

  has (name: string): boolean {
    return this.vars.has(name) || (this.parent?.has(name) ?? false)
  }

  with (vars: ReadonlyMap<string, Val>): Scope { return new Scope(vars, this) }
}

/** The type names an identifier can denote as a value (`type(x) == int`). */
export const TYPE_IDENTS = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type',
  'google.protobuf.Timestamp', 'google.protobuf.Duration', 'optional_type'])

/** The namespaces of qualified function names (`optional.of`, `sets.contains`…). */
export const NAMESPACES = new Set(['optional', 'sets', 'lists', 'strings', 'format', 'math', 'base64'])

/** `a.b.c` as a dotted name when the expression is only identifiers and selections. */
export function qualifiedName (e: Expr): string | undefined {
  if (e.k === 'ident') return e.name
  if (e.k === 'select' && !e.test && !e.optional) {
    const base = qualifiedName(e.operand)
    return base === undefined ? undefined : `${base}.${e.field}`
  }
  return undefined
}

const GO_TYPE_NAMES: Record<string, string> = {
  int: 'types.Int',
  uint: 'types.Uint',
  double: 'types.Double',
  bool: 'types.Bool',
  string: 'types.String',
  bytes: 'types.Bytes',
  null_type: 'types.Null',
  'google.protobuf.Timestamp': 'types.Timestamp',
  'google.protobuf.Duration': 'types.Duration'
}

const REGEX_FUNCTIONS = new Set(['matches', 'find', 'findAll'])

function truthy (v: Val): boolean | CelError {
  if (typeof v === 'boolean') return v
  return v instanceof CelError ? v : new CelError('no such overload')
}

/** The items a comprehension iterates: list items, or map keys (an object's escaped). */
function iterationItems (range: Val, twoVars: boolean): Array<[Val, Val]> | CelError {
  if (range instanceof CelList) return range.items.map((v, i) => [twoVars ? BigInt(i) : v, v])
  if (range instanceof CelMap) return range.iterationKeys().map(([k, v]) => [k, v])
  if (range instanceof CelError) return range
  if (twoVars) return new CelError(`unsupported comprehension range type: ${GO_TYPE_NAMES[typeName(range)] ?? typeName(range)}`)
  return new CelError(`got '${GO_TYPE_NAMES[typeName(range)] ?? typeName(range)}', expected iterable type`)
}

/** Evaluates an expression in a scope. */
export function evaluate (e: Expr, scope: Scope): Val {
  spend()
  switch (e.k) {
    case 'const': return e.v
    case 'ident': {
      const v = scope.get(e.name)
      if (v !== undefined) return v
      if (TYPE_IDENTS.has(e.name)) return new CelType(e.name)
      return new CelError(`undeclared reference to '${e.name}'`)
    }
    case 'select': {
      const name = qualifiedName(e)
      if (name !== undefined && !scope.has(name.split('.')[0] as string) && TYPE_IDENTS.has(name)) return new CelType(name)
      return select(evaluate(e.operand, scope), e.field, e.test, e.optional)
    }
    case 'index': return index(evaluate(e.operand, scope), evaluate(e.index, scope), e.optional)
    case 'list': {
      const items: Val[] = []
      for (let i = 0; i < e.elems.length; i++) {
        const v = evaluate(e.elems[i] as Expr, scope)
        if (v instanceof CelError) return v
        if (e.optional[i]) {
          if (!(v instanceof CelOptional)) return new CelError(`cannot initialize optional list element from non-optional value ${keyString(v)}`)
          if (v.value !== undefined) items.push(v.value)
        } else {
          items.push(v)
        }
      }
      return new CelList(items)
    }
    case 'map': {
      const entries = new Map<string, [MapKey, Val]>()
      for (const entry of e.entries) {
        const k = evaluate(entry.key, scope)
        if (k instanceof CelError) return k
        const v = evaluate(entry.value, scope)
        if (v instanceof CelError) return v
        if (!isMapKey(k)) return new CelError(`unsupported key type: ${typeName(k)}`)
        const id = typeof k + ':' + keyString(k)
        if (entry.optional) {
          if (!(v instanceof CelOptional)) return new CelError(`cannot initialize optional entry '${keyString(k)}' from non-optional value ${keyString(v)}`)
          if (v.value === undefined) { entries.delete(id); continue }
          entries.set(id, [k, v.value])
        } else {
          entries.set(id, [k, v])
        }
      }
      return new CelMap(entries.values())
    }
    case 'comp': return comprehension(e, scope)
    case 'optmap': {
      const t = evaluate(e.target, scope)
      if (t instanceof CelError) return t
      if (!(t instanceof CelOptional)) return noSuchOverload('hasValue', t)
      if (t.value === undefined) return CelOptional.NONE
      const r = evaluate(e.body, scope.with(new Map([[e.varName, t.value]])))
      if (r instanceof CelError) return r
      // optFlatMap expands to `t.hasValue() ? body : optional.none()`: the body's value is the result, optional or not.
      return e.flat ? r : new CelOptional(r)
    }
    case 'call': return call(e, scope)
  }
}

function comprehension (e: Expr & { k: 'comp' }, scope: Scope): Val {
  const range = evaluate(e.range, scope)
  const items = iterationItems(range, e.iterVar2 !== undefined)
  if (items instanceof CelError) return items
  let accu = evaluate(e.init, scope)
  for (const [first, second] of items) {
    const vars = new Map<string, Val>([[e.accuVar, accu], [e.iterVar, first]])
    if (e.iterVar2 !== undefined) vars.set(e.iterVar2, second)
    const loop = scope.with(vars)
    const cond = evaluate(e.cond, loop)
    if (typeof cond === 'boolean' && !cond) break
    accu = evaluate(e.step, loop)
  }
  return evaluate(e.result, scope.with(new Map([[e.accuVar, accu]])))
}

function logical (args: Expr[], scope: Scope, stopAt: boolean): Val {
  let err: CelError | undefined
  for (const a of args) {
    const v = truthy(evaluate(a, scope))
    if (v === stopAt) return stopAt
    if (v instanceof CelError) err ??= v
  }
  return err ?? !stopAt
}

function call (e: Expr & { k: 'call' }, scope: Scope): Val {
  switch (e.fn) {
    case '_&&_': return logical(e.args, scope, false)
    case '_||_': return logical(e.args, scope, true)
    case '_?_:_': {
      const c = evaluate(e.args[0] as Expr, scope)
      if (c instanceof CelError) return c
      if (typeof c !== 'boolean') return new CelError('no such overload')
      return evaluate(e.args[c ? 1 : 2] as Expr, scope)
    }
    case '@not_strictly_false': {
      const v = evaluate(e.args[0] as Expr, scope)
      return typeof v === 'boolean' ? v : true
    }
    case 'or': case 'orValue': {
      // cel-go short-circuits these: a receiver that is not an optional is the result itself, the alternative is
      // evaluated only when the optional is empty and returned as it is.
      if (!e.target || e.args.length !== 1) break
      const t = evaluate(e.target, scope)
      if (!(t instanceof CelOptional)) return t
      if (t.value !== undefined) return e.fn === 'or' ? t : t.value
      return evaluate(e.args[0] as Expr, scope)
    }
  }
  let name = e.fn
  let target = e.target
  const qualifier = target ? qualifiedName(target) : undefined
  if (qualifier !== undefined && !scope.has(qualifier.split('.')[0] as string) && lookupFunction(`${qualifier}.${e.fn}`)) {
    name = `${qualifier}.${e.fn}`
    target = undefined
  }
  const fn = lookupFunction(name)
  const impl = target ? fn?.member : fn?.global
  if (!impl) return new CelError(`undeclared reference to '${name}'`)
  const argExprs = target ? [target, ...e.args] : e.args
  const args: Val[] = []
  for (const a of argExprs) {
    const v = evaluate(a, scope)
    if (v instanceof CelError) return v
    args.push(v)
  }
  // With a constant pattern, matches, find and findAll run precompiled (Kubernetes evaluates with OptOptimize), and
  // that code reports a subject that is not a string as a bare `no such overload`.
  const pattern = argExprs[1]
  if (REGEX_FUNCTIONS.has(name) && pattern?.k === 'const' && typeof pattern.v === 'string' && typeof args[0] !== 'string') return new CelError('no such overload')
  return impl(args, name)
}
