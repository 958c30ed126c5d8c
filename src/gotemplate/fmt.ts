// Go's fmt package over the engine's values: Sprint, Sprintln and Sprintf with Go's verbs, flags, widths and
// precisions, its %!verb(type=value) complaints, and the printing of maps (sorted keys), slices, nil and floats
// ('g' shortest with exponents from 1e+06 and below 1e-04). Templates print every value through this.
import { spend } from '../budget/index.js'
import {
  GoInt, GoMap, GoObject, GoSlice, type GoValue, IFACE, isSignedKind, sortedKeys, typeOf, Unsupported, utf8Bytes
} from './values.js'
import { canBackquote, formatFloat, formatFloatBinary, isPrint, quoteWith } from '../go/strconv.js'
import { runeCount } from '../go/utf8.js'

/** fmt's flags, width and precision of one verb. */
interface Flags {
  plus: boolean
  minus: boolean
  sharp: boolean
  space: boolean
  zero: boolean
  plusV: boolean
  sharpV: boolean
  wid: number
  widPresent: boolean
  prec: number
  precPresent: boolean
}

/** Flags reset, as Go's pp.clearflags. */
export function clearFlags (): Flags {
  return { plus: false, minus: false, sharp: false, space: false, zero: false, plusV: false, sharpV: false, wid: 0, widPresent: false, prec: 0, precPresent: false }
}

/** One formatting run (Go's pp). */
export class Printer {
  buf = ''
  f: Flags = clearFlags()
  private erroring = false

  private padding (n: number): string {
    if (n <= 0) return ''
    return (this.f.zero && !this.f.minus ? '0' : ' ').repeat(n)
  }

  pad (s: string): void {
    if (!this.f.widPresent || this.f.wid === 0) { this.buf += s; return }
    const width = this.f.wid - runeCount(s)
    if (!this.f.minus) this.buf += this.padding(width) + s
    else this.buf += s + this.padding(width)
  }

  private truncate (s: string): string {
    if (!this.f.precPresent) return s
    let n = this.f.prec
    let i = 0
    for (const ch of s) {
      if (--n < 0) return s.slice(0, i)
      i += ch.length
    }
    return s
  }

  fmtS (s: string): void { this.pad(this.truncate(s)) }

  private fmtQ (s: string): void {
    s = this.truncate(s)
    if (this.f.sharp && canBackquote(s)) this.pad('`' + s + '`')
    else this.pad(quoteWith(s, '"', this.f.plus))
  }

  private fmtSx (s: string, upper: boolean): void {
    const bytes = utf8Bytes(s)
    let length = bytes.length
    if (this.f.precPresent && this.f.prec < length) length = this.f.prec
    let width = 2 * length
    if (width > 0) {
      if (this.f.space) {
        if (this.f.sharp) width *= 2
        width += length - 1
      } else if (this.f.sharp) width += 2
    } else {
      if (this.f.widPresent) this.buf += this.padding(this.f.wid)
      return
    }
    if (this.f.widPresent && this.f.wid > width && !this.f.minus) this.buf += this.padding(this.f.wid - width)
    const x = upper ? 'X' : 'x'
    let out = this.f.sharp ? '0' + x : ''
    for (let i = 0; i < length; i++) {
      if (this.f.space && i > 0) out += ' ' + (this.f.sharp ? '0' + x : '')
      const h = (bytes[i] as number).toString(16).padStart(2, '0')
      out += upper ? h.toUpperCase() : h
    }
    this.buf += out
    if (this.f.widPresent && this.f.wid > width && this.f.minus) this.buf += this.padding(this.f.wid - width)
  }

  private fmtInteger (u: bigint, base: number, signed: boolean, verb: string, upper: boolean): void {
    const negative = signed && u < 0n
    if (negative) u = -u
    let prec = 0
    if (this.f.precPresent) {
      prec = this.f.prec
      if (prec === 0 && u === 0n) {
        const oldZero = this.f.zero
        this.f.zero = false
        this.buf += this.padding(this.f.wid)
        this.f.zero = oldZero
        return
      }
    } else if (this.f.zero && !this.f.minus && this.f.widPresent) {
      prec = this.f.wid
      if (negative || this.f.plus || this.f.space) prec--
    }
    let digits = u.toString(base)
    if (upper) digits = digits.toUpperCase()
    if (digits.length < prec) digits = '0'.repeat(prec - digits.length) + digits
    if (this.f.sharp) {
      if (base === 2) digits = '0b' + digits
      else if (base === 8 && digits[0] !== '0') digits = '0' + digits
      else if (base === 16) digits = (upper ? '0X' : '0x') + digits
    }
    if (verb === 'O') digits = '0o' + digits
    if (negative) digits = '-' + digits
    else if (this.f.plus) digits = '+' + digits
    else if (this.f.space) digits = ' ' + digits
    const oldZero = this.f.zero
    this.f.zero = false
    this.pad(digits)
    this.f.zero = oldZero
  }

  private fmtFloat (v: number, verb: string, prec: number): void {
    if (this.f.precPresent) prec = this.f.prec
    let num: string
    if (verb === 'b' || verb === 'x' || verb === 'X') {
      const bin = prec < 0 ? formatFloatBinary(v, verb) : undefined
      if (bin === undefined && Number.isFinite(v)) throw new Unsupported(`the %${verb} verb on a float with a precision`)
      num = bin ?? formatFloat(v, 'g', -1)
    } else num = formatFloat(v, verb as 'e' | 'E' | 'f' | 'g' | 'G', prec)
    if (num[0] === '-' || num[0] === '+') { /* signed already */ } else num = '+' + num
    if (this.f.space && num[0] === '+' && !this.f.plus) num = ' ' + num.slice(1)
    if (num[1] === 'I' || num[1] === 'N') {
      const oldZero = this.f.zero
      this.f.zero = false
      if (num[1] === 'N' && !this.f.space && !this.f.plus) num = num.slice(1)
      this.pad(num)
      this.f.zero = oldZero
      return
    }
    if (this.f.sharp) num = sharpFloat(num, verb, prec)
    if (this.f.plus || num[0] !== '+') {
      if (this.f.zero && !this.f.minus && this.f.widPresent && this.f.wid > num.length) {
        this.buf += num[0] + '0'.repeat(this.f.wid - num.length) + num.slice(1)
        return
      }
      this.pad(num)
      return
    }
    this.pad(num.slice(1))
  }

  private fmtC (u: bigint): void {
    const r = u > 0x10ffffn || (u >= 0xd800n && u <= 0xdfffn) ? 0xfffd : Number(u)
    this.pad(String.fromCodePoint(r))
  }

  private fmtQc (u: bigint): void {
    const r = u > 0x10ffffn || (u >= 0xd800n && u <= 0xdfffn) ? 0xfffd : Number(u)
    if (this.f.sharp && isPrint(r)) this.pad('\'' + String.fromCodePoint(r) + '\'')
    else this.pad(quoteWith(String.fromCodePoint(r), '\'', this.f.plus))
  }

  private fmtUnicode (u: bigint): void {
    let s = u.toString(16).toUpperCase()
    const prec = this.f.precPresent && this.f.prec > 4 ? this.f.prec : 4
    if (s.length < prec) s = '0'.repeat(prec - s.length) + s
    s = 'U+' + s
    if (this.f.sharp && u <= 0x10ffffn && isPrint(Number(u))) s += ' \'' + String.fromCodePoint(Number(u)) + '\''
    const oldZero = this.f.zero
    this.f.zero = false
    this.pad(s)
    this.f.zero = oldZero
  }

  badVerb (verb: string, arg: GoValue, isNil: boolean): void {
    this.erroring = true
    this.buf += '%!' + verb + '('
    if (!isNil) {
      this.buf += typeName(arg) + '='
      this.printArg(arg, 'v', false)
    } else this.buf += '<nil>'
    this.buf += ')'
    this.erroring = false
  }

  /** printArg: a top-level operand (nil here is the untyped nil interface). */
  printArg (arg: GoValue, verb: string, top = true): void {
    if (arg === null) {
      if (verb === 'T' || verb === 'v') this.pad('<nil>')
      else this.badVerb(verb, null, true)
      return
    }
    if (verb === 'T') { this.fmtS(typeName(arg)); return }
    if (verb === 'p') throw new Unsupported('the %p verb (a memory address)')
    this.printValue(arg, verb, top ? 0 : 1)
  }

  private handleMethods (v: GoValue, verb: string): boolean {
    if (this.erroring) return false
    if (verb === 'w') { this.badVerb(verb, v, v === null); return true }
    if (!(v instanceof GoObject)) return false
    if (this.f.sharpV) throw new Unsupported(`%#v of a ${v.type}`)
    if ('vsxXq'.includes(verb)) { this.fmtString(v.toString(), verb); return true }
    return false
  }

  printValue (v: GoValue, verb: string, depth: number): void {
    spend()
    if (this.handleMethods(v, verb)) return
    if (v instanceof GoObject) throw new Unsupported(`the %${verb} verb on a ${v.type}`)
    switch (typeof v) {
      case 'boolean':
        if (verb === 't' || verb === 'v') this.pad(v ? 'true' : 'false')
        else this.badVerb(verb, v, false)
        return
      case 'number':
        this.printFloat(v, verb)
        return
      case 'string':
        this.fmtString(v, verb)
        return
    }
    if (v instanceof GoInt) { this.printInt(v, verb); return }
    if (v instanceof GoMap) { this.printMap(v, verb, depth); return }
    if (v instanceof GoSlice) { this.printSlice(v, verb, depth); return }
    // A nil interface inside a container.
    if (this.f.sharpV) this.buf += IFACE + '(nil)'
    else this.buf += '<nil>'
  }

  private printFloat (v: number, verb: string): void {
    switch (verb) {
      case 'v': this.fmtFloat(v, 'g', -1); return
      case 'b': case 'g': case 'G': case 'x': case 'X': this.fmtFloat(v, verb, -1); return
      case 'f': case 'e': case 'E': this.fmtFloat(v, verb, 6); return
      case 'F': this.fmtFloat(v, 'f', 6); return
    }
    this.badVerb(verb, v, false)
  }

  private printInt (v: GoInt, verb: string): void {
    const signed = isSignedKind(v.type)
    switch (verb) {
      case 'v':
        if (this.f.sharpV && !signed) {
          const sharp = this.f.sharp
          this.f.sharp = true
          this.fmtInteger(v.v, 16, false, 'v', false)
          this.f.sharp = sharp
        } else this.fmtInteger(v.v, 10, signed, verb, false)
        return
      case 'd': this.fmtInteger(v.v, 10, signed, verb, false); return
      case 'b': this.fmtInteger(v.v, 2, signed, verb, false); return
      case 'o': case 'O': this.fmtInteger(v.v, 8, signed, verb, false); return
      case 'x': this.fmtInteger(v.v, 16, signed, verb, false); return
      case 'X': this.fmtInteger(v.v, 16, signed, verb, true); return
      case 'c': this.fmtC(BigInt.asUintN(64, v.v)); return
      case 'q': this.fmtQc(BigInt.asUintN(64, v.v)); return
      case 'U': this.fmtUnicode(BigInt.asUintN(64, v.v)); return
    }
    this.badVerb(verb, v, false)
  }

  private fmtString (s: string, verb: string): void {
    switch (verb) {
      case 'v': if (this.f.sharpV) this.fmtQ(s); else this.fmtS(s); return
      case 's': this.fmtS(s); return
      case 'x': this.fmtSx(s, false); return
      case 'X': this.fmtSx(s, true); return
      case 'q': this.fmtQ(s); return
    }
    this.badVerb(verb, s, false)
  }

  private printMap (m: GoMap, verb: string, depth: number): void {
    if (this.f.sharpV) {
      this.buf += m.type
      if (m.entries === null) { this.buf += '(nil)'; return }
      this.buf += '{'
    } else this.buf += 'map['
    const entries = m.entries ?? new Map()
    sortedKeys(entries).forEach((k, i) => {
      if (i > 0) this.buf += this.f.sharpV ? ', ' : ' '
      this.printValue(k, verb, depth + 1)
      this.buf += ':'
      this.printValue(entries.get(k) as GoValue, verb, depth + 1)
    })
    this.buf += this.f.sharpV ? '}' : ']'
  }

  private printSlice (s: GoSlice, verb: string, depth: number): void {
    if ('sqxX'.includes(verb) && s.type === '[]uint8') throw new Unsupported('byte slices')
    const items = s.items ?? []
    if (this.f.sharpV) {
      this.buf += s.type
      if (s.items === null) { this.buf += '(nil)'; return }
      this.buf += '{'
      items.forEach((x, i) => {
        if (i > 0) this.buf += ', '
        this.printValue(x, verb, depth + 1)
      })
      this.buf += '}'
      return
    }
    this.buf += '['
    items.forEach((x, i) => {
      if (i > 0) this.buf += ' '
      this.printValue(x, verb, depth + 1)
    })
    this.buf += ']'
  }
}

function sharpFloat (num: string, verb: string, prec: number): string {
  let digits = 0
  if ('vgGx'.includes(verb)) digits = prec === -1 ? 6 : prec
  let tail = ''
  let body = num
  const e = body.search(/[eEpP]/)
  if (e >= 0 && verb !== 'x' && verb !== 'X') { tail = body.slice(e); body = body.slice(0, e) }
  let hasPoint = false
  let sawNonzero = false
  for (let i = 1; i < body.length; i++) {
    const c = body[i]
    if (c === '.') { hasPoint = true; continue }
    if (c !== '0') sawNonzero = true
    if (sawNonzero) digits--
  }
  if (!hasPoint) {
    if (body.length === 2 && body[1] === '0') digits--
    body += '.'
  }
  while (digits > 0) { body += '0'; digits-- }
  return body + tail
}

/** The Go type name of a value as %T prints it ('<nil>' for nil). */
export function typeName (v: GoValue): string {
  return typeOf(v) ?? '<nil>'
}

/** fmt.Sprint. */
export function sprint (args: readonly GoValue[]): string {
  const p = new Printer()
  let prevString = false
  args.forEach((arg, i) => {
    const isString = typeof arg === 'string'
    if (i > 0 && !isString && !prevString) p.buf += ' '
    p.f = clearFlags()
    p.printArg(arg, 'v')
    prevString = isString
  })
  return p.buf
}

/** fmt.Sprintln. */
export function sprintln (args: readonly GoValue[]): string {
  const p = new Printer()
  args.forEach((arg, i) => {
    if (i > 0) p.buf += ' '
    p.f = clearFlags()
    p.printArg(arg, 'v')
  })
  return p.buf + '\n'
}

/** fmt.Sprintf("%v", v) for one value: the common case, kept short. */
export function sprintV (v: GoValue): string {
  if (typeof v === 'string') return v
  return sprint([v])
}
