// text/template's builtin functions (funcs.go): and, or, not, len, index, slice, print, printf, println, html, js,
// urlquery, eq, ne, lt, le, gt, ge and call, with Go's argument handling and error texts. and/or are evaluated by
// exec (they short-circuit); their entries here give the signature.
import { sprint, sprintln } from './fmt.js'
import { sprintf } from './printf.js'
import { isPrint } from '../go/strconv.js'
import { truth } from './exec.js'
import {
  byteSlice, elemType, fn, GoCallError, type GoFunc, GoInt, GoMap, GoObject, GoSlice, type GoValue, goInt, IFACE, Iface, INVALID, isAscii, isSignedKind, isUnsignedKind, kindOf, type RValue, rtypeOf, slot, typeOf, utf8Bytes, zeroOf
} from './values.js'
import { byteLength } from '../go/utf8.js'
import { compare as compareStrings } from '../go/strings.js'

const RV = 'reflect.Value'

function concreteOf (v: RValue): GoValue | typeof INVALID {
  if (v instanceof Iface) return v.v === null ? INVALID : v.v
  return v
}

/** The type name a message shows for a value (reflect's Type().String()). */
function typeString (v: GoValue): string { return typeOf(v) ?? '<nil>' }

function indexArg (index: GoValue | typeof INVALID, cap: number): number {
  let x: bigint
  if (index === INVALID) throw new GoCallError('cannot index slice/array with nil')
  if (index instanceof GoInt) x = isSignedKind(index.type) ? index.v : BigInt.asIntN(64, index.v)
  else throw new GoCallError(`cannot index slice/array with type ${typeString(index)}`)
  if (x < 0n || x > BigInt(cap)) throw new GoCallError(`index out of range: ${x}`)
  return Number(x)
}

/** The bytes of a string as uint8 values (what indexing a Go string gives). */
function byteAt (s: string, i: number): GoValue {
  if (isAscii(s)) return new GoInt('uint8', BigInt(s.charCodeAt(i)))
  return new GoInt('uint8', BigInt(utf8Bytes(s)[i] as number))
}

function index (item: RValue, ...indexes: RValue[]): RValue {
  let cur: RValue = concreteOf(item)
  if (cur === INVALID) throw new GoCallError('index of untyped nil')
  for (const raw of indexes) {
    const idx = concreteOf(raw)
    if (cur instanceof Iface) {
      if (cur.v === null) throw new GoCallError('index of nil pointer')
      cur = cur.v
    }
    const v = cur as GoValue
    if (typeof v === 'string') {
      const n = byteLength(v)
      const x = indexArg(idx, n)
      if (x === n) throw new GoCallError('reflect: string index out of range')
      cur = byteAt(v, x)
    } else if (v instanceof GoSlice) {
      const items = v.items ?? []
      const x = indexArg(idx, items.length)
      if (x === items.length) throw new GoCallError('reflect: slice index out of range')
      cur = slot(elemType(v.type), items[x] as GoValue)
    } else if (v instanceof GoMap) {
      if (idx === INVALID) throw new GoCallError('value is nil; should be of type string')
      if (typeof idx !== 'string') throw new GoCallError(`value has type ${typeString(idx)}; should be string`)
      const elem = elemType(v.type)
      const got = v.entries?.get(idx)
      cur = got === undefined ? (elem === IFACE ? new Iface(null) : zeroOf(elem)) : slot(elem, got)
    } else throw new GoCallError(`can't index item of type ${typeString(v)}`)
  }
  return cur
}

function slice (item: RValue, ...indexes: RValue[]): RValue {
  const v = concreteOf(item)
  if (v === INVALID) throw new GoCallError('slice of untyped nil')
  if (indexes.length > 3) throw new GoCallError(`too many slice indexes: ${indexes.length}`)
  let cap: number
  let len: number
  if (typeof v === 'string') {
    if (indexes.length === 3) throw new GoCallError('cannot 3-index slice a string')
    cap = len = byteLength(v)
  } else if (v instanceof GoSlice) cap = len = v.items?.length ?? 0
  else throw new GoCallError(`can't slice item of type ${typeString(v)}`)
  const idx = [0, len, 0]
  indexes.forEach((x, i) => { idx[i] = indexArg(concreteOf(x), cap) })
  if ((idx[0] as number) > (idx[1] as number)) throw new GoCallError(`invalid slice index: ${idx[0]} > ${idx[1]}`)
  if (indexes.length === 3 && (idx[1] as number) > (idx[2] as number)) throw new GoCallError(`invalid slice index: ${idx[1]} > ${idx[2]}`)
  if (typeof v === 'string') return byteSlice(v, idx[0] as number, idx[1] as number)
  return new GoSlice((v as GoSlice).type, ((v as GoSlice).items ?? []).slice(idx[0], idx[1]))
}

function length (item: RValue): RValue {
  if (item instanceof Iface && item.v === null) throw new GoCallError('len of nil pointer')
  const v = concreteOf(item)
  if (v === INVALID) throw new GoCallError('reflect: call of reflect.Value.Type on zero Value')
  if (typeof v === 'string') return goInt(byteLength(v))
  if (v instanceof GoSlice) return goInt(v.items?.length ?? 0)
  if (v instanceof GoMap) return goInt(v.entries?.size ?? 0)
  if (v instanceof GoObject) throw new GoCallError(`len of type ${v.kind === 'ptr' ? v.type.slice(1) : v.type}`)
  throw new GoCallError(`len of type ${typeString(v)}`)
}

const enum K { Invalid, Bool, Complex, Int, Float, String, Uint }

function basicKind (v: GoValue | typeof INVALID): K {
  if (v === INVALID || v === null) return K.Invalid
  switch (typeof v) {
    case 'boolean': return K.Bool
    case 'number': return K.Float
    case 'string': return K.String
  }
  if (v instanceof GoInt) return isUnsignedKind(v.type) ? K.Uint : K.Int
  return K.Invalid
}

function rtypeString (v: GoValue | typeof INVALID): string {
  return v === INVALID ? '<nil>' : typeString(v)
}

function eq (arg1: RValue, ...arg2: RValue[]): boolean {
  const a = concreteOf(arg1)
  if (arg2.length === 0) throw new GoCallError('missing argument for comparison')
  const k1 = basicKind(a)
  for (const raw of arg2) {
    const b = concreteOf(raw)
    const k2 = basicKind(b)
    let t = false
    if (k1 !== k2) {
      if (k1 === K.Int && k2 === K.Uint) t = (a as GoInt).v >= 0n && (a as GoInt).v === (b as GoInt).v
      else if (k1 === K.Uint && k2 === K.Int) t = (b as GoInt).v >= 0n && (a as GoInt).v === (b as GoInt).v
      else if (a !== INVALID && b !== INVALID) throw new GoCallError(`incompatible types for comparison: ${rtypeString(a)} and ${rtypeString(b)}`)
    } else {
      switch (k1) {
        case K.Bool: case K.Float: case K.String: t = a === b; break
        case K.Int: case K.Uint: t = (a as GoInt).v === (b as GoInt).v; break
        default: t = eqOther(a, b)
      }
    }
    if (t) return true
  }
  return false
}

function isNilValue (v: GoValue | typeof INVALID): boolean {
  if (v === INVALID || v === null) return true
  if (v instanceof GoSlice) return v.items === null
  if (v instanceof GoMap) return v.entries === null
  return false
}

function eqOther (a: GoValue | typeof INVALID, b: GoValue | typeof INVALID): boolean {
  if (a !== INVALID && b !== INVALID && kindOf(a) !== kindOf(b)) {
    throw new GoCallError(sprintf('non-comparable types %s: ', [a as GoValue]) + `${rtypeString(a)}, ${rtypeString(b)}: ` + sprint([b as GoValue]))
  }
  if (isNilValue(a) || isNilValue(b)) return isNilValue(a) === isNilValue(b)
  const kind = kindOf(b as GoValue)
  if (kind === 'slice' || kind === 'map') throw new GoCallError(sprintf('non-comparable type %s: ', [b as GoValue]) + rtypeString(b))
  return a === b
}

function lt (arg1: RValue, arg2: RValue): boolean {
  const a = concreteOf(arg1)
  const k1 = basicKind(a)
  if (k1 === K.Invalid) throw new GoCallError('invalid type for comparison')
  const b = concreteOf(arg2)
  const k2 = basicKind(b)
  if (k2 === K.Invalid) throw new GoCallError('invalid type for comparison')
  if (k1 !== k2) {
    if (k1 === K.Int && k2 === K.Uint) return (a as GoInt).v < 0n || (a as GoInt).v < (b as GoInt).v
    if (k1 === K.Uint && k2 === K.Int) return (b as GoInt).v >= 0n && (a as GoInt).v < (b as GoInt).v
    throw new GoCallError(`incompatible types for comparison: ${rtypeString(a)} and ${rtypeString(b)}`)
  }
  switch (k1) {
    case K.Bool: case K.Complex: throw new GoCallError('invalid type for comparison')
    case K.Float: return (a as number) < (b as number)
    case K.String: return compareStrings(a as string, b as string) < 0
    default: return (a as GoInt).v < (b as GoInt).v
  }
}

function le (a: RValue, b: RValue): boolean { return lt(a, b) || eq(a, b) }

/** text/template's evalArgs: printableValue of each argument (nil prints `<no value>`), then fmt.Sprint. */
function evalArgs (args: GoValue[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0]
  return sprint(args.map(a => a === null ? '<no value>' : a))
}

function htmlEscape (s: string): string {
  return s.replace(/['"&<>\0]/g, c => ({ '\'': '&#39;', '"': '&#34;', '&': '&amp;', '<': '&lt;', '>': '&gt;', '\0': '\uFFFD' })[c] as string)
}

function jsEscape (s: string): string {
  let out = ''
  for (const ch of s) {
    const r = ch.codePointAt(0) as number
    if (r < 0x80) {
      switch (ch) {
        case '\\': out += '\\\\'; continue
        case '\'': out += '\\\''; continue
        case '"': out += '\\"'; continue
        case '<': out += '\\u003C'; continue
        case '>': out += '\\u003E'; continue
        case '&': out += '\\u0026'; continue
        case '=': out += '\\u003D'; continue
      }
      out += r < 0x20 ? '\\u00' + r.toString(16).toUpperCase().padStart(2, '0') : ch
    } else out += isPrint(r) ? ch : '\\u' + r.toString(16).toUpperCase().padStart(4, '0')
  }
  return out
}

/** url.QueryEscape. */
function queryEscape (s: string): string {
  let out = ''
  for (const b of utf8Bytes(s)) {
    const c = String.fromCharCode(b)
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c
    else if (c === ' ') out += '+'
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0')
  }
  return out
}

// The builtins receive their arguments as exec hands them: reflect.Value parameters get the RValue, interface{}
// parameters the Go value. The variadic any-functions (print, html…) get both, through a wrapper.
const ANY = IFACE

function printFn (f: (args: GoValue[]) => string): GoFunc {
  return fn([ANY], 'string', (...args: GoValue[]) => f(args), { variadic: true })
}

/** text/template's builtins, as GoFuncs. */
export const BUILTINS: Readonly<Record<string, GoFunc>> = {
  and: fn([RV, RV], RV, () => INVALID, { variadic: true }),
  or: fn([RV, RV], RV, () => INVALID, { variadic: true }),
  not: fn([RV], 'bool', (v: RValue) => !truth(v)),
  len: fn([RV], 'int', length, { returnsError: true }),
  index: fn([RV, RV], RV, index, { variadic: true, returnsError: true }),
  slice: fn([RV, RV], RV, slice, { variadic: true, returnsError: true }),
  print: printFn(sprint),
  println: printFn(sprintln),
  printf: fn(['string', ANY], 'string', (format: string, ...args: GoValue[]) => sprintf(format, args), { variadic: true }),
  html: printFn(args => htmlEscape(evalArgs(args))),
  js: printFn(args => jsEscape(evalArgs(args))),
  urlquery: printFn(args => queryEscape(evalArgs(args))),
  eq: fn([RV, RV], 'bool', eq, { variadic: true, returnsError: true }),
  ne: fn([RV, RV], 'bool', (a: RValue, b: RValue) => !eq(a, b), { returnsError: true }),
  lt: fn([RV, RV], 'bool', lt, { returnsError: true }),
  le: fn([RV, RV], 'bool', le, { returnsError: true }),
  gt: fn([RV, RV], 'bool', (a: RValue, b: RValue) => !le(a, b), { returnsError: true }),
  ge: fn([RV, RV], 'bool', (a: RValue, b: RValue) => !lt(a, b), { returnsError: true }),
  call: fn([RV, RV], RV, (name: string, f: RValue) => {
    const v = concreteOf(f)
    if (v === INVALID) throw new GoCallError('call of nil')
    throw new GoCallError(`non-function ${name} of type ${rtypeOf(v) as string}`)
  }, { variadic: true, returnsError: true })
}
