// The email format: Go's net/mail.ParseAddress must accept the string and give a non-empty address. This follows its
// parser (addr-spec first, then `Name <addr>`, groups, quoted strings, comments, domain literals). RFC 2047 encoded
// words in display names are taken as plain words (Go decodes them; a malformed one fails there).
import { parseAddr } from '../go/netip.js'

const isVchar = (c: string) => (c >= '!' && c <= '~') || c.codePointAt(0)! >= 0x80
const isWSP = (c: string) => c === ' ' || c === '\t'
const isAtext = (c: string, dot: boolean) => c === '.' ? dot : !'()<>[]:;@\\,"'.includes(c) && isVchar(c)
const isQtext = (c: string) => c !== '\\' && c !== '"' && isVchar(c)
const isDtext = (c: string) => c !== '[' && c !== ']' && c !== '\\' && isVchar(c)

class Fail extends Error {}

class Parser {
  constructor (public s: string) {}
  empty (): boolean { return this.s.length === 0 }
  peek (): string { return this.s[0] as string }
  consume (c: string): boolean {
    if (this.empty() || this.peek() !== c) return false
    this.s = this.s.slice(1)
    return true
  }

  skipSpace (): void { this.s = this.s.replace(/^[ \t]+/, '') }
  skipCFWS (): boolean {
    this.skipSpace()
    while (this.consume('(')) {
      if (!this.consumeComment()) return false
      this.skipSpace()
    }
    return true
  }

  consumeComment (): boolean {
    let depth = 1
    while (!this.empty() && depth > 0) {
      if (this.peek() === '\\' && this.s.length > 1) this.s = this.s.slice(1)
      else if (this.peek() === '(') depth++
      else if (this.peek() === ')') depth--
      this.s = this.s.slice(1)
    }
    return depth === 0
  }

  consumeQuotedString (): string {
    const chars = [...this.s]
    let out = ''
    let escaped = false
    for (let i = 1; ; i++) {
      const r = chars[i]
      if (r === undefined) throw new Fail('unclosed quoted-string')
      if (escaped) {
        if (!isVchar(r) && !isWSP(r)) throw new Fail('bad character in quoted-string')
        out += r
        escaped = false
      } else if (isQtext(r) || isWSP(r)) {
        out += r
      } else if (r === '"') {
        this.s = chars.slice(i + 1).join('')
        return out
      } else if (r === '\\') {
        escaped = true
      } else {
        throw new Fail('bad character in quoted-string')
      }
    }
  }

  consumeAtom (dot: boolean, permissive: boolean): string {
    const chars = [...this.s]
    let i = 0
    while (i < chars.length && isAtext(chars[i] as string, dot)) i++
    if (i === 0) throw new Fail('invalid string')
    const atom = chars.slice(0, i).join('')
    this.s = chars.slice(i).join('')
    if (!permissive && (atom.startsWith('.') || atom.includes('..') || atom.endsWith('.'))) throw new Fail('dot in atom')
    return atom
  }

  consumeDomainLiteral (): string {
    this.consume('[')
    let text = ''
    for (;;) {
      if (this.empty()) throw new Fail('unclosed domain-literal')
      const c = [...this.s][0] as string
      if (c === ']') break
      if (!isDtext(c)) throw new Fail('bad character in domain-literal')
      text += c
      this.s = this.s.slice(c.length)
    }
    this.consume(']')
    let zone = ''
    try { zone = parseAddr(text).zone } catch { zone = '-' }
    if (zone !== '') throw new Fail('invalid IP address in domain-literal')
    return '[' + text + ']'
  }

  consumeAddrSpec (): string {
    const orig = this.s
    try {
      this.skipSpace()
      if (this.empty()) throw new Fail('no addr-spec')
      let local: string
      if (this.peek() === '"') {
        local = this.consumeQuotedString()
        if (local === '') throw new Fail('empty quoted string in addr-spec')
      } else {
        local = this.consumeAtom(true, false)
      }
      if (!this.consume('@')) throw new Fail('missing @ in addr-spec')
      this.skipSpace()
      if (this.empty()) throw new Fail('no domain in addr-spec')
      const domain = this.peek() === '[' ? this.consumeDomainLiteral() : this.consumeAtom(true, false)
      return local + '@' + domain
    } catch (err) {
      this.s = orig
      throw err
    }
  }

  consumePhrase (): string {
    const words: string[] = []
    for (;;) {
      if (words.length > 0 && !this.skipCFWS()) throw new Fail('misformatted parenthetical comment')
      this.skipSpace()
      if (this.empty()) break
      try {
        words.push(this.peek() === '"' ? this.consumeQuotedString() : this.consumeAtom(true, true))
      } catch (err) {
        if (words.length === 0) throw err
        break
      }
    }
    return words.join(' ')
  }

  parseAddress (handleGroup: boolean): string[] {
    this.skipSpace()
    if (this.empty()) throw new Fail('no address')
    try {
      const spec = this.consumeAddrSpec()
      this.skipSpace()
      if (!this.empty() && this.peek() === '(') {
        this.consume('(')
        if (!this.consumeComment()) throw new Fail('misformatted parenthetical comment')
      }
      return [spec]
    } catch (err) {
      if (!(err instanceof Fail) || err.message === 'misformatted parenthetical comment') throw err
    }
    if (this.peek() !== '<') this.consumePhrase()
    this.skipSpace()
    if (handleGroup && this.consume(':')) return this.consumeGroupList()
    if (!this.consume('<')) throw new Fail('no angle-addr')
    const spec = this.consumeAddrSpec()
    if (!this.consume('>')) throw new Fail('unclosed angle-addr')
    return [spec]
  }

  consumeGroupList (): string[] {
    const group: string[] = []
    this.skipSpace()
    if (this.consume(';')) {
      if (!this.skipCFWS()) throw new Fail('misformatted parenthetical comment')
      return group
    }
    for (;;) {
      this.skipSpace()
      group.push(...this.parseAddress(false))
      if (!this.skipCFWS()) throw new Fail('misformatted parenthetical comment')
      if (this.consume(';')) {
        if (!this.skipCFWS()) throw new Fail('misformatted parenthetical comment')
        return group
      }
      if (!this.consume(',')) throw new Fail('expected comma')
    }
  }
}

/** strfmt.IsEmail: net/mail.ParseAddress accepts s as exactly one address with a non-empty address part. */
export function isEmail (s: string): boolean {
  try {
    const p = new Parser(s)
    const addrs = p.parseAddress(true)
    if (!p.skipCFWS() || !p.empty() || addrs.length !== 1) return false
    return (addrs[0] as string) !== ''
  } catch (err) {
    if (err instanceof Fail) return false
    throw err
  }
}
