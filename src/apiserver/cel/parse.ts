// Parsing a CEL expression with @bufbuild/cel's parser into the small tree this evaluator walks. That parser expands
// the standard macros (has, all, exists, exists_one, map, filter) but knows neither the optional syntax of cel-go's
// OptionalTypes (`a.?b`, `a[?k]`, `[?x]`, `{?k: v}`) nor the two-variable comprehensions: the optional syntax is
// rewritten into marker calls before parsing (a scan that skips strings and comments), and the markers and the
// two-variable macros become nodes of their own here.
import { parse as celParse } from '@bufbuild/cel'
import { CelError, CelUint, type Val } from './values.js'

type PExpr = ReturnType<typeof celParse>['expr']

/** The evaluator's expression tree. */
export type Expr =
  | { k: 'const', v: Val }
  | { k: 'ident', name: string }
  | { k: 'select', operand: Expr, field: string, test: boolean, optional: boolean }
  | { k: 'index', operand: Expr, index: Expr, optional: boolean }
  | { k: 'call', fn: string, target?: Expr, args: Expr[] }
  | { k: 'list', elems: Expr[], optional: boolean[] }
  | { k: 'map', entries: Array<{ key: Expr, value: Expr, optional: boolean }> }
  | { k: 'comp', iterVar: string, iterVar2?: string, range: Expr, accuVar: string, init: Expr, cond: Expr, step: Expr, result: Expr }
  | { k: 'optmap', target: Expr, varName: string, body: Expr, flat: boolean }

/** A CEL expression that does not parse (or uses syntax this evaluator does not support). */
export class CelSyntaxError extends Error {}

const OPT_SELECT = '_optsel_'
const OPT_INDEX = '_optidx_'
const OPT_ELEM = '_optelem_'
const OPT_KEY = '_optkey_'

interface Context { open: string, kind: 'paren' | 'index' | 'optindex' | 'list' | 'map', wrapped: boolean }

/** Rewrites cel-go's optional syntax into marker calls @bufbuild/cel parses. */
export function rewriteOptionalSyntax (src: string): string {
  let out = ''
  const stack: Context[] = []
  let prevIsValue = false
  const top = () => stack[stack.length - 1]
  const nextNonSpace = (i: number) => { let j = i; while (j < src.length && /\s/.test(src[j] as string)) j++; return j }
  for (let i = 0; i < src.length;) {
    const c = src[i] as string
    if (/\s/.test(c)) { out += c; i++; continue }
    if (c === '/' && src[i + 1] === '/') {
      const end = src.indexOf('\n', i)
      const stop = end < 0 ? src.length : end
      out += src.slice(i, stop)
      i = stop
      continue
    }
    const str = /^([rRbB]{0,2})('''|"""|'|")/.exec(src.slice(i))
    if (str && (str[1] === '' || !/[A-Za-z0-9_]/.test(src[i - 1] ?? ''))) {
      const raw = /r/i.test(str[1] as string)
      const quote = str[2] as string
      let j = i + str[0].length
      while (j < src.length && !src.startsWith(quote, j)) j += !raw && src[j] === '\\' ? 2 : 1
      j = Math.min(src.length, j + quote.length)
      out += src.slice(i, j)
      i = j
      prevIsValue = true
      continue
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9][0-9A-Za-z_.]*(?:[eE][+-]?[0-9]+)?/.exec(src.slice(i))
    if (word) { out += word[0]; i += word[0].length; prevIsValue = true; continue }
    if (c === '.' && src[nextNonSpace(i + 1)] === '?') {
      const j = nextNonSpace(nextNonSpace(i + 1) + 1)
      const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(j))
      if (!ident) throw new CelSyntaxError(`Syntax error: expected a field name after '.?' at ${i}`)
      out += `.${OPT_SELECT}('${ident[0]}')`
      i = j + ident[0].length
      prevIsValue = true
      continue
    }
    if (c === '[' || c === '{' || c === '(') {
      const q = nextNonSpace(i + 1)
      const optional = c !== '(' && src[q] === '?'
      if (c === '[' && prevIsValue) {
        if (optional) { stack.push({ open: c, kind: 'optindex', wrapped: false }); out += `.${OPT_INDEX}(`; i = q + 1 } else { stack.push({ open: c, kind: 'index', wrapped: false }); out += c; i++ }
      } else {
        const kind = c === '[' ? 'list' : c === '{' ? 'map' : 'paren'
        stack.push({ open: c, kind, wrapped: optional })
        out += c + (optional ? (kind === 'list' ? OPT_ELEM : OPT_KEY) + '(' : '')
        i = optional ? q + 1 : i + 1
      }
      prevIsValue = false
      continue
    }
    if (c === ']' || c === '}' || c === ')') {
      const ctx = stack.pop()
      if (ctx?.wrapped) out += ')'
      out += ctx?.kind === 'optindex' ? ')' : c
      i++
      prevIsValue = true
      continue
    }
    const ctx = top()
    if (c === ',' && ctx && (ctx.kind === 'list' || ctx.kind === 'map')) {
      if (ctx.wrapped) out += ')'
      const q = nextNonSpace(i + 1)
      ctx.wrapped = src[q] === '?'
      out += ',' + (ctx.wrapped ? (ctx.kind === 'list' ? OPT_ELEM : OPT_KEY) + '(' : '')
      i = ctx.wrapped ? q + 1 : i + 1
      prevIsValue = false
      continue
    }
    if (c === ':' && ctx?.kind === 'map' && ctx.wrapped) {
      out += '):'
      ctx.wrapped = false
      i++
      prevIsValue = false
      continue
    }
    out += c
    i++
    prevIsValue = false
  }
  return out
}

function constant (e: PExpr & { exprKind: { case: 'constExpr' } }): Val {
  const c = e.exprKind.value.constantKind
  switch (c.case) {
    case 'boolValue': case 'stringValue': case 'doubleValue': return c.value
    case 'int64Value': return c.value
    case 'uint64Value': return new CelUint(c.value)
    case 'bytesValue': return c.value
    case 'nullValue': return null
    default: return new CelError(`unsupported constant ${String(c.case)}`)
  }
}

const identName = (e: Expr | undefined): string | undefined => e?.k === 'ident' ? e.name : undefined

/** The two-variable comprehension macros of cel-go's ext.TwoVarComprehensions, as comprehension nodes. */
function twoVarMacro (fn: string, target: Expr, args: Expr[]): Expr | undefined {
  const [a0, a1, a2, a3] = args
  const v1 = identName(a0)
  const v2 = identName(a1)
  if (v1 === undefined || v2 === undefined || a2 === undefined) return undefined
  if (v1 === v2) throw new CelSyntaxError(`duplicate variable name: ${v1}`)
  const accu: Expr = { k: 'ident', name: '@result' }
  const call = (name: string, ...xs: Expr[]): Expr => ({ k: 'call', fn: name, args: xs })
  const lit = (v: Val): Expr => ({ k: 'const', v })
  const comp = (init: Expr, cond: Expr, step: Expr, result: Expr = accu): Expr =>
    ({ k: 'comp', iterVar: v1, iterVar2: v2, range: target, accuVar: '@result', init, cond, step, result })
  if (args.length === 3) {
    switch (fn) {
      case 'all': return comp(lit(true), call('@not_strictly_false', accu), call('_&&_', accu, a2))
      case 'exists': return comp(lit(false), call('@not_strictly_false', call('!_', accu)), call('_||_', accu, a2))
      case 'existsOne': case 'exists_one':
        return comp(lit(0n), lit(true), call('_?_:_', a2, call('_+_', accu, lit(1n)), accu), call('_==_', accu, lit(1n)))
    }
  }
  const filter = args.length === 4 ? a2 : undefined
  const body = args.length === 4 ? a3 as Expr : a2
  const guard = (step: Expr): Expr => filter ? call('_?_:_', filter, step, accu) : step
  switch (fn) {
    case 'transformList': return comp({ k: 'list', elems: [], optional: [] }, lit(true), guard(call('_+_', accu, { k: 'list', elems: [body], optional: [false] })))
    case 'transformMap': return comp({ k: 'map', entries: [] }, lit(true), guard(call('cel.@mapInsert', accu, a0 as Expr, body)))
    case 'transformMapEntry': return comp({ k: 'map', entries: [] }, lit(true), guard(call('cel.@mapInsert', accu, body)))
  }
  return undefined
}

/**
 * The sortBy macro of cel-go's lists extension: `l.sortBy(e, key)` binds l once (a comprehension over no items
 * whose accumulator is l) and sorts it by `l.map(e, key)`.
 */
function sortByMacro (target: Expr, args: Expr[]): Expr {
  if (!['list', 'select', 'ident', 'comp', 'call', 'index', 'optmap'].includes(target.k)) {
    throw new CelSyntaxError('sortBy can only be applied to a list, identifier, comprehension, call or select expression')
  }
  const varName = identName(args[0])
  if (varName === undefined) throw new CelSyntaxError('argument must be a simple name')
  const input: Expr = { k: 'ident', name: '@__sortBy_input__' }
  const result: Expr = { k: 'ident', name: '@result' }
  const keys: Expr = {
    k: 'comp',
    iterVar: varName,
    range: input,
    accuVar: '@result',
    init: { k: 'list', elems: [], optional: [] },
    cond: { k: 'const', v: true },
    step: { k: 'call', fn: '_+_', args: [result, { k: 'list', elems: [args[1] as Expr], optional: [false] }] },
    result
  }
  const sorted: Expr = { k: 'call', fn: '@sortByAssociatedKeys', target: input, args: [keys] }
  return { k: 'comp', iterVar: '#unused', range: { k: 'list', elems: [], optional: [] }, accuVar: '@__sortBy_input__', init: target, cond: { k: 'const', v: false }, step: input, result: sorted }
}

function convert (e: PExpr): Expr {
  const kind = e.exprKind
  switch (kind.case) {
    case 'constExpr': return { k: 'const', v: constant(e as PExpr & { exprKind: { case: 'constExpr' } }) }
    case 'identExpr': return { k: 'ident', name: kind.value.name }
    case 'selectExpr':
      return { k: 'select', operand: convert(kind.value.operand as PExpr), field: kind.value.field, test: kind.value.testOnly, optional: false }
    case 'callExpr': {
      const fn = kind.value.function
      const target = kind.value.target ? convert(kind.value.target) : undefined
      const args = kind.value.args.map(convert)
      if (fn === OPT_SELECT && target && args[0]?.k === 'const' && typeof args[0].v === 'string') return { k: 'select', operand: target, field: args[0].v, test: false, optional: true }
      if (fn === OPT_INDEX && target && args.length === 1) return { k: 'index', operand: target, index: args[0] as Expr, optional: true }
      if (fn === '_[_]' && args.length === 2) return { k: 'index', operand: args[0] as Expr, index: args[1] as Expr, optional: false }
      if (target && (fn === 'optMap' || fn === 'optFlatMap') && args.length === 2) {
        const varName = identName(args[0])
        if (varName === undefined) throw new CelSyntaxError(`${fn}() variable name must be a simple identifier`)
        return { k: 'optmap', target, varName, body: args[1] as Expr, flat: fn === 'optFlatMap' }
      }
      if (target && fn === 'sortBy' && args.length === 2) return sortByMacro(target, args)
      if (target && (args.length === 3 || args.length === 4)) {
        const macro = twoVarMacro(fn, target, args)
        if (macro) return macro
      }
      return { k: 'call', fn, ...(target ? { target } : {}), args }
    }
    case 'listExpr': {
      const elems: Expr[] = []
      const optional: boolean[] = []
      for (const el of kind.value.elements.map(convert)) {
        const marked = el.k === 'call' && el.fn === OPT_ELEM && el.args.length === 1 && el.target === undefined
        elems.push(marked ? el.args[0] as Expr : el)
        optional.push(marked)
      }
      return { k: 'list', elems, optional }
    }
    case 'structExpr': {
      if (kind.value.messageName !== '') throw new CelSyntaxError(`message construction (${kind.value.messageName}{...}) is not supported`)
      return {
        k: 'map',
        entries: kind.value.entries.map((entry) => {
          if (entry.keyKind.case !== 'mapKey') throw new CelSyntaxError('field initializers are only allowed in message construction')
          const key = convert(entry.keyKind.value)
          const marked = key.k === 'call' && key.fn === OPT_KEY && key.args.length === 1
          return { key: marked ? key.args[0] as Expr : key, value: convert(entry.value as PExpr), optional: marked }
        })
      }
    }
    case 'comprehensionExpr': {
      const c = kind.value
      return {
        k: 'comp',
        iterVar: c.iterVar,
        ...(c.iterVar2 ? { iterVar2: c.iterVar2 } : {}),
        range: convert(c.iterRange as PExpr),
        accuVar: c.accuVar,
        init: convert(c.accuInit as PExpr),
        cond: convert(c.loopCondition as PExpr),
        step: convert(c.loopStep as PExpr),
        result: convert(c.result as PExpr)
      }
    }
  }
  throw new CelSyntaxError('unsupported expression')
}

/** Parses a CEL expression; throws CelSyntaxError. */
export function parseCel (src: string): Expr {
  let parsed
  try {
    parsed = celParse(rewriteOptionalSyntax(src))
  } catch (err) {
    if (err instanceof CelSyntaxError) throw err
    throw new CelSyntaxError(`Syntax error: ${(err as Error).message}`)
  }
  return convert(parsed.expr)
}
