// A light compile-time check of a rule, standing in for cel-go's type checker where it decides whether a rule is
// usable at all: every identifier is declared (self, oldSelf, comprehension variables, type names), every function
// exists in the 1.36 environment (one this evaluator leaves out is refused by name), a field selected on an object
// type is one of its properties, and a rule that is obviously not a bool (or a messageExpression obviously not a
// string) is refused. Types are followed as far as the schema gives them and are dyn beyond; operator overloads are
// not resolved statically (the evaluator reports a wrong operand at run time, as cel-go does for dyn values).
import { NAMESPACES, TYPE_IDENTS, qualifiedName } from './eval.js'
import { lookupFunction, UNSUPPORTED_FUNCTIONS } from './functions.js'
import type { Expr } from './parse.js'
import type { DeclType } from './typing.js'
import { CelUint, type Val } from './values.js'

/** A type as far as the check follows it. */
export type CheckType = DeclType | { kind: 'optional', inner: CheckType }

const DYN: DeclType = { kind: 'dyn' }
const prim = (name: 'int' | 'double' | 'string' | 'bool' | 'bytes' | 'duration' | 'timestamp'): DeclType => ({ kind: 'prim', name })

/** A check failure; its message is cel-go's where cel-go has one. */
export class CelCheckError extends Error {}

const BOOL_FUNCTIONS = new Set(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_', '@in', '!_', 'contains', 'startsWith', 'endsWith', 'matches',
  'isSorted', 'hasValue', 'isURL', 'isIP', 'isCIDR', 'isQuantity', 'isSemver', 'isInteger', 'isGreaterThan', 'isLessThan',
  'containsIP', 'containsCIDR', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast',
  'sets.contains', 'sets.equivalent', 'sets.intersects', 'ip.isCanonical', '@not_strictly_false'])
const STRING_FUNCTIONS = new Set(['string', 'charAt', 'lowerAscii', 'upperAscii', 'replace', 'substring', 'trim', 'join', 'format',
  'strings.quote', 'find', 'getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath'])
const INT_FUNCTIONS = new Set(['size', 'int', 'indexOf', 'lastIndexOf', 'getFullYear', 'getMonth', 'getDayOfYear', 'getDayOfMonth',
  'getDate', 'getDayOfWeek', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds', 'sign', 'asInteger', 'compareTo',
  'family', 'prefixLength', 'major', 'minor', 'patch'])

function constType (v: Val): CheckType {
  switch (typeof v) {
    case 'boolean': return prim('bool')
    case 'bigint': return prim('int')
    case 'number': return prim('double')
    case 'string': return prim('string')
  }
  if (v instanceof Uint8Array) return prim('bytes')
  if (v instanceof CelUint) return DYN
  return DYN
}

function describe (t: CheckType): string {
  switch (t.kind) {
    case 'prim': return t.name === 'duration' ? 'google.protobuf.Duration' : t.name === 'timestamp' ? 'google.protobuf.Timestamp' : t.name
    case 'list': return `list(${describe(t.elem)})`
    case 'map': return `map(string, ${describe(t.value)})`
    case 'object': return 'object'
    case 'optional': return `optional_type(${describe(t.inner)})`
    default: return 'dyn'
  }
}

class Checker {
  constructor (private readonly vars: Map<string, CheckType>) {}

  private withVars (entries: Array<[string, CheckType]>): Checker {
    return new Checker(new Map([...this.vars, ...entries]))
  }

  check (e: Expr): CheckType {
    switch (e.k) {
      case 'const': return constType(e.v)
      case 'ident': {
        const t = this.vars.get(e.name)
        if (t !== undefined) return t
        if (TYPE_IDENTS.has(e.name)) return DYN
        throw new CelCheckError(`undeclared reference to '${e.name}' (in container '')`)
      }
      case 'select': {
        const name = qualifiedName(e)
        if (name !== undefined && !this.vars.has(name.split('.')[0] as string) && TYPE_IDENTS.has(name)) return DYN
        return this.field(this.check(e.operand), e.field, e.test, e.optional)
      }
      case 'index': {
        const t = this.check(e.operand)
        this.check(e.index)
        const inner = t.kind === 'optional' ? t.inner : t
        const elem = inner.kind === 'list' ? inner.elem : inner.kind === 'map' ? inner.value : DYN
        return e.optional || t.kind === 'optional' ? { kind: 'optional', inner: elem } : elem
      }
      case 'list': {
        const types = e.elems.map(x => this.check(x))
        return { kind: 'list', elem: types.length > 0 && !e.optional.some(Boolean) ? types[0] as DeclType : DYN } as CheckType
      }
      case 'map':
        for (const entry of e.entries) { this.check(entry.key); this.check(entry.value) }
        return { kind: 'map', value: DYN }
      case 'comp': {
        const range = this.check(e.range)
        let first: CheckType = DYN
        let second: CheckType = DYN
        if (range.kind === 'list') { first = e.iterVar2 !== undefined ? prim('int') : range.elem; second = range.elem }
        if (range.kind === 'map' || range.kind === 'object') { first = prim('string'); second = range.kind === 'map' ? range.value : DYN }
        const accu = this.check(e.init)
        const loop = this.withVars([[e.accuVar, accu], [e.iterVar, first], ...(e.iterVar2 !== undefined ? [[e.iterVar2, second] as [string, CheckType]] : [])])
        loop.check(e.cond)
        loop.check(e.step)
        return this.withVars([[e.accuVar, accu]]).check(e.result)
      }
      case 'optmap': {
        const t = this.check(e.target)
        const body = this.withVars([[e.varName, t.kind === 'optional' ? t.inner : DYN]]).check(e.body)
        return e.flat ? body : { kind: 'optional', inner: body }
      }
      case 'call': return this.call(e)
    }
  }

  private field (t: CheckType, field: string, test: boolean, optional: boolean): CheckType {
    let result: CheckType = DYN
    const inner = t.kind === 'optional' ? t.inner : t
    if (inner.kind === 'object') {
      const f = inner.fields.get(field)
      if (f === undefined) throw new CelCheckError(`undefined field '${field}'`)
      result = f
    } else if (inner.kind === 'map') {
      result = inner.value
    } else if (inner.kind === 'prim' || inner.kind === 'list') {
      throw new CelCheckError(`type '${describe(inner)}' does not support field selection`)
    }
    if (test) return prim('bool')
    return optional || t.kind === 'optional' ? { kind: 'optional', inner: result } : result
  }

  private call (e: Expr & { k: 'call' }): CheckType {
    let name = e.fn
    let target = e.target
    const qualifier = target ? qualifiedName(target) : undefined
    if (qualifier !== undefined && !this.vars.has(qualifier.split('.')[0] as string)) {
      const full = `${qualifier}.${e.fn}`
      if (lookupFunction(full) || UNSUPPORTED_FUNCTIONS.has(full) || NAMESPACES.has(qualifier)) {
        name = full
        target = undefined
      }
    }
    const unsupported = UNSUPPORTED_FUNCTIONS.get(name)
    if (unsupported !== undefined) throw new CelCheckError(`function '${name}' is not supported: ${unsupported}`)
    const def = lookupFunction(name)
    const special = ['_&&_', '_||_', '_?_:_', '@not_strictly_false', 'or', 'orValue', 'cel.@mapInsert'].includes(name)
    if (!special && (def === undefined || (target ? def.member === undefined : def.global === undefined))) {
      throw new CelCheckError(`undeclared reference to '${name}' (in container '')`)
    }
    const targetType = target ? this.check(target) : undefined
    const args = e.args.map(a => this.check(a))
    switch (name) {
      case '_&&_': case '_||_': return prim('bool')
      case '_?_:_': return args[1] as CheckType
      case '_+_': case '_-_': case '_*_': case '_/_': case '_%_': case '-_': return args[0]?.kind === 'prim' && args[0].name !== 'timestamp' ? args[0] : DYN
      case 'or': return targetType ?? DYN
      case 'orValue': return targetType?.kind === 'optional' ? targetType.inner : DYN
      case 'value': return targetType?.kind === 'optional' ? targetType.inner : DYN
      case 'double': return prim('double')
      case 'bytes': return prim('bytes')
      case 'bool': return prim('bool')
      case 'timestamp': return prim('timestamp')
      case 'duration': return prim('duration')
      case 'dyn': return DYN
      case 'split': return { kind: 'list', elem: prim('string') }
    }
    if (BOOL_FUNCTIONS.has(name)) return prim('bool')
    if (STRING_FUNCTIONS.has(name)) return prim('string')
    if (INT_FUNCTIONS.has(name)) return prim('int')
    return DYN
  }
}

/** Checks an expression with these variables; returns its type as far as it is known. Throws CelCheckError. */
export function checkExpr (e: Expr, vars: ReadonlyMap<string, CheckType>): CheckType {
  return new Checker(new Map(vars)).check(e)
}

/** Whether a checked type can be the given primitive (dyn can be anything). */
export function mayBe (t: CheckType, name: 'bool' | 'string'): boolean {
  return t.kind === 'dyn' || (t.kind === 'prim' && t.name === name)
}

/** Whether the expression refers to the variable (and so whether a rule is a transition rule). */
export function references (e: Expr, name: string): boolean {
  switch (e.k) {
    case 'const': return false
    case 'ident': return e.name === name
    case 'select': return references(e.operand, name)
    case 'index': return references(e.operand, name) || references(e.index, name)
    case 'call': return (e.target !== undefined && references(e.target, name)) || e.args.some(a => references(a, name))
    case 'list': return e.elems.some(x => references(x, name))
    case 'map': return e.entries.some(x => references(x.key, name) || references(x.value, name))
    case 'comp': return [e.range, e.init, e.cond, e.step, e.result].some(x => references(x, name))
    case 'optmap': return references(e.target, name) || references(e.body, name)
  }
}
