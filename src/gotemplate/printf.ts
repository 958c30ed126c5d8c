// fmt.Sprintf's format driver (doPrintf): flags, explicit argument indexes [n], * widths and precisions from
// arguments, and Go's complaints in the output (%!d(MISSING), %!(EXTRA …), %!(BADWIDTH), %!(NOVERB), …).
import { clearFlags, Printer, typeName } from './fmt.js'
import { GoInt, type GoValue, isSignedKind } from './values.js'

function parseNum (s: string, i: number): { num: number, present: boolean, next: number } {
  if (i >= s.length || s.charCodeAt(i) < 48 || s.charCodeAt(i) > 57) return { num: 0, present: false, next: i }
  let num = 0
  while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) {
    if (num > 1e6) return { num: 0, present: false, next: s.length }
    num = num * 10 + s.charCodeAt(i) - 48
    i++
  }
  return { num, present: true, next: i }
}

function intFromArg (args: readonly GoValue[], argNum: number): { num: number, ok: boolean, argNum: number } {
  if (argNum >= args.length) return { num: 0, ok: false, argNum }
  const a = args[argNum] as GoValue
  let num = 0
  let ok = false
  if (a instanceof GoInt) {
    const n = isSignedKind(a.type) ? a.v : BigInt.asIntN(64, a.v)
    if (isSignedKind(a.type) || a.v < (1n << 63n)) { num = Number(n); ok = true }
    if (num > 1e6 || num < -1e6) { num = 0; ok = false }
  }
  return { num, ok, argNum: argNum + 1 }
}

/** fmt.Sprintf. */
export function sprintf (format: string, args: readonly GoValue[]): string {
  const p = new Printer()
  let argNum = 0
  let afterIndex = false
  let reordered = false
  let goodArgNum = true
  const end = format.length
  // argNumber: an explicit [n] index at i; found is true when it parsed, even when n is out of range.
  const argNumber = (i: number): { i: number, found: boolean } => {
    if (i >= end || format[i] !== '[') return { i, found: false }
    reordered = true
    let wid = 1
    let ok = false
    let index = 0
    if (end - i >= 3) {
      const close = format.indexOf(']', i + 1)
      if (close >= 0) {
        const n = parseNum(format.slice(0, close), i + 1)
        wid = close - i + 1
        if (n.present && n.next === close) { ok = true; index = n.num - 1 }
      }
    }
    if (ok && index >= 0 && index < args.length) { argNum = index; return { i: i + wid, found: true } }
    goodArgNum = false
    return { i: i + wid, found: ok }
  }
  let i = 0
  while (i < end) {
    goodArgNum = true
    const lasti = i
    while (i < end && format[i] !== '%') i++
    if (i > lasti) p.buf += format.slice(lasti, i)
    if (i >= end) break
    i++
    p.f = clearFlags()
    let simple = false
    for (; i < end; i++) {
      const c = format[i] as string
      if (c === '#') p.f.sharp = true
      else if (c === '0') p.f.zero = true
      else if (c === '+') p.f.plus = true
      else if (c === '-') p.f.minus = true
      else if (c === ' ') p.f.space = true
      else {
        if (c >= 'a' && c <= 'z' && argNum < args.length) {
          if (c === 'v' || c === 'w') {
            p.f.sharpV = p.f.sharp
            p.f.sharp = false
            p.f.plusV = p.f.plus
            p.f.plus = false
          }
          p.printArg(args[argNum] as GoValue, c)
          argNum++
          i++
          simple = true
        }
        break
      }
    }
    if (simple) continue
    ;({ i, found: afterIndex } = argNumber(i))
    if (i < end && format[i] === '*') {
      i++
      const w = intFromArg(args, argNum)
      p.f.wid = w.num
      p.f.widPresent = w.ok
      argNum = w.argNum
      if (!w.ok) p.buf += '%!(BADWIDTH)'
      if (p.f.wid < 0) { p.f.wid = -p.f.wid; p.f.minus = true; p.f.zero = false }
      afterIndex = false
    } else {
      const w = parseNum(format, i)
      p.f.wid = w.num
      p.f.widPresent = w.present
      i = w.next
      if (afterIndex && p.f.widPresent) goodArgNum = false
    }
    if (i + 1 < end && format[i] === '.') {
      i++
      if (afterIndex) goodArgNum = false
      ;({ i, found: afterIndex } = argNumber(i))
      if (i < end && format[i] === '*') {
        i++
        const w = intFromArg(args, argNum)
        p.f.prec = w.num
        p.f.precPresent = w.ok
        argNum = w.argNum
        if (p.f.prec < 0) { p.f.prec = 0; p.f.precPresent = false }
        if (!p.f.precPresent) p.buf += '%!(BADPREC)'
        afterIndex = false
      } else {
        const w = parseNum(format, i)
        p.f.prec = w.num
        p.f.precPresent = true
        i = w.next
      }
    }
    if (!afterIndex) ({ i, found: afterIndex } = argNumber(i))
    if (i >= end) { p.buf += '%!(NOVERB)'; break }
    const verb = String.fromCodePoint(format.codePointAt(i) as number)
    i += verb.length
    if (verb === '%') { p.buf += '%'; continue }
    if (!goodArgNum) { p.buf += '%!' + verb + '(BADINDEX)'; continue }
    if (argNum >= args.length) { p.buf += '%!' + verb + '(MISSING)'; continue }
    if (verb === 'v' || verb === 'w') {
      p.f.sharpV = p.f.sharp
      p.f.sharp = false
      p.f.plusV = p.f.plus
      p.f.plus = false
    }
    p.printArg(args[argNum] as GoValue, verb)
    argNum++
  }
  if (!reordered && argNum < args.length) {
    p.f = clearFlags()
    p.buf += '%!(EXTRA '
    args.slice(argNum).forEach((arg, k) => {
      if (k > 0) p.buf += ', '
      if (arg === null) p.buf += '<nil>'
      else {
        p.buf += typeName(arg) + '='
        p.printArg(arg, 'v')
      }
    })
    p.buf += ')'
  }
  return p.buf
}
