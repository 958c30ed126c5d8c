// The lexer of Go's text/template (text/template/parse/lex.go): the same items, in the same order, with the same
// trimming of `{{- ` and ` -}}`, comments, quoted, raw and character constants, numbers and error texts. The parser
// pulls items one at a time; positions are offsets into the JS string (the error context converts them to Go's
// byte columns).
import { isPrint, quote } from '../go/strconv.js'
import { byteLength } from '../go/utf8.js'

/** Item types, in Go's order (keywords after KEYWORD). */
export const enum T {
  Error, Bool, Char, CharConstant, Comment, Complex, Assign, Declare, EOF, Field, Identifier, LeftDelim, LeftParen,
  Number, Pipe, RawString, RightDelim, RightParen, Space, String, Text, Variable,
  Keyword, Block, Break, Continue, Dot, Define, Else, End, If, Nil, Range, Template, With
}

/** One lexed item. */
export interface Item { typ: T, pos: number, val: string, line: number }

const KEYWORDS: Record<string, T> = {
  '.': T.Dot,
  block: T.Block,
  break: T.Break,
  continue: T.Continue,
  define: T.Define,
  else: T.Else,
  end: T.End,
  if: T.If,
  range: T.Range,
  nil: T.Nil,
  template: T.Template,
  with: T.With
}

/** How an item appears in "unexpected X in Y" messages. */
export function itemString (i: Item): string {
  if (i.typ === T.EOF) return 'EOF'
  if (i.typ === T.Error) return i.val
  if (i.typ > T.Keyword) return `<${i.val}>`
  if (byteLength(i.val) > 10) return quote([...i.val].slice(0, 10).join('')) + '...'
  return quote(i.val)
}

const EOF = -1
const LETTER = /^\p{L}$/u
const DIGIT = /^\p{Nd}$/u

function isSpace (r: number): boolean { return r === 32 || r === 9 || r === 13 || r === 10 }

function isAlphaNumeric (r: number): boolean {
  if (r < 0) return false
  if (r < 0x80) return r === 95 || (r >= 48 && r <= 57) || (r >= 65 && r <= 90) || (r >= 97 && r <= 122)
  const c = String.fromCodePoint(r)
  return LETTER.test(c) || DIGIT.test(c)
}

/** %#U of a rune: U+0078 'x' (the quoted form only when printable). */
function sharpU (r: number): string {
  const hex = 'U+' + r.toString(16).toUpperCase().padStart(4, '0')
  return isPrint(r) ? `${hex} '${String.fromCodePoint(r)}'` : hex
}

function hasLeftTrimMarker (s: string, at: number): boolean {
  return s.length - at >= 2 && s[at] === '-' && isSpace(s.charCodeAt(at + 1))
}

function hasRightTrimMarker (s: string, at: number): boolean {
  return s.length - at >= 2 && isSpace(s.charCodeAt(at)) && s[at + 1] === '-'
}

function countNewlines (s: string, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++
  return n
}

const enum S { Text, LeftDelim, Comment, RightDelim, InsideAction, Space, Identifier, Field, Variable, Char, Number, Quote, RawQuote }

/** Options the parser sets. */
interface LexOptions { breakOK: boolean, continueOK: boolean }

/** The lexer: call nextItem() until EOF or Error. */
export class Lexer {
  private pos = 0
  private start = 0
  private atEOF = false
  private parenDepth = 0
  private line = 1
  private startLine = 1
  private item: Item = { typ: T.EOF, pos: 0, val: 'EOF', line: 1 }
  private insideAction = false
  options: LexOptions = { breakOK: true, continueOK: true }

  constructor (private input: string, private readonly leftDelim = '{{', private readonly rightDelim = '}}') {}

  private next (): number {
    if (this.pos >= this.input.length) { this.atEOF = true; return EOF }
    const r = this.input.codePointAt(this.pos) as number
    this.pos += r > 0xffff ? 2 : 1
    if (r === 10) this.line++
    return r
  }

  private peek (): number {
    const r = this.next()
    this.backup()
    return r
  }

  private backup (): void {
    if (!this.atEOF && this.pos > 0) {
      const c = this.input.charCodeAt(this.pos - 1)
      const w = c >= 0xdc00 && c <= 0xdfff && this.pos > 1 && this.input.charCodeAt(this.pos - 2) >= 0xd800 && this.input.charCodeAt(this.pos - 2) <= 0xdbff ? 2 : 1
      this.pos -= w
      if (c === 10) this.line--
    }
  }

  private thisItem (typ: T): Item {
    const i = { typ, pos: this.start, val: this.input.slice(this.start, this.pos), line: this.startLine }
    this.start = this.pos
    this.startLine = this.line
    return i
  }

  private emit (typ: T): null { this.item = this.thisItem(typ); return null }

  private emitItem (i: Item): null { this.item = i; return null }

  private ignore (): void {
    this.line += countNewlines(this.input, this.start, this.pos)
    this.start = this.pos
    this.startLine = this.line
  }

  private accept (valid: string): boolean {
    const r = this.next()
    if (r !== EOF && valid.includes(String.fromCodePoint(r))) return true
    this.backup()
    return false
  }

  private acceptRun (valid: string): void {
    for (;;) {
      const r = this.next()
      if (r === EOF || !valid.includes(String.fromCodePoint(r))) break
    }
    this.backup()
  }

  private errorf (msg: string): null {
    this.item = { typ: T.Error, pos: this.start, val: msg, line: this.startLine }
    this.start = 0
    this.pos = 0
    this.input = ''
    return null
  }

  /** The next item. */
  nextItem (): Item {
    this.item = { typ: T.EOF, pos: this.pos, val: 'EOF', line: this.startLine }
    let state: S | null = this.insideAction ? S.InsideAction : S.Text
    while (state !== null) state = this.step(state)
    return this.item
  }

  private step (state: S): S | null {
    switch (state) {
      case S.Text: return this.lexText()
      case S.LeftDelim: return this.lexLeftDelim()
      case S.Comment: return this.lexComment()
      case S.RightDelim: return this.lexRightDelim()
      case S.InsideAction: return this.lexInsideAction()
      case S.Space: return this.lexSpace()
      case S.Identifier: return this.lexIdentifier()
      case S.Field: return this.lexFieldOrVariable(T.Field)
      case S.Variable: return this.atTerminator() ? this.emit(T.Variable) : this.lexFieldOrVariable(T.Variable)
      case S.Char: return this.lexQuoted('\'', T.CharConstant, 'unterminated character constant')
      case S.Number: return this.lexNumber()
      case S.Quote: return this.lexQuoted('"', T.String, 'unterminated quoted string')
      case S.RawQuote: return this.lexRawQuote()
    }
  }

  private lexText (): S | null {
    const x = this.input.indexOf(this.leftDelim, this.pos)
    if (x >= 0) {
      if (x > this.pos) {
        this.pos = x
        let trimLength = 0
        const delimEnd = this.pos + this.leftDelim.length
        if (hasLeftTrimMarker(this.input, delimEnd)) {
          const text = this.input.slice(this.start, this.pos)
          trimLength = text.length - text.replace(/[ \t\r\n]+$/, '').length
        }
        this.pos -= trimLength
        this.line += countNewlines(this.input, this.start, this.pos)
        const i = this.thisItem(T.Text)
        this.pos += trimLength
        this.ignore()
        if (i.val.length > 0) return this.emitItem(i)
      }
      return S.LeftDelim
    }
    this.pos = this.input.length
    if (this.pos > this.start) {
      this.line += countNewlines(this.input, this.start, this.pos)
      return this.emit(T.Text)
    }
    return this.emit(T.EOF)
  }

  private atRightDelim (): { delim: boolean, trimSpaces: boolean } {
    if (hasRightTrimMarker(this.input, this.pos) && this.input.startsWith(this.rightDelim, this.pos + 2)) return { delim: true, trimSpaces: true }
    if (this.input.startsWith(this.rightDelim, this.pos)) return { delim: true, trimSpaces: false }
    return { delim: false, trimSpaces: false }
  }

  private leftTrimLength (): number {
    let n = 0
    while (this.pos + n < this.input.length && isSpace(this.input.charCodeAt(this.pos + n))) n++
    return n
  }

  private lexLeftDelim (): S | null {
    this.pos += this.leftDelim.length
    const trimSpace = hasLeftTrimMarker(this.input, this.pos)
    const afterMarker = trimSpace ? 2 : 0
    if (this.input.startsWith('/*', this.pos + afterMarker)) {
      this.pos += afterMarker
      this.ignore()
      return S.Comment
    }
    const i = this.thisItem(T.LeftDelim)
    this.insideAction = true
    this.pos += afterMarker
    this.ignore()
    this.parenDepth = 0
    return this.emitItem(i)
  }

  private lexComment (): S | null {
    this.pos += 2
    const x = this.input.indexOf('*/', this.pos)
    if (x < 0) return this.errorf('unclosed comment')
    this.pos = x + 2
    const { delim, trimSpaces } = this.atRightDelim()
    if (!delim) return this.errorf('comment ends before closing delimiter')
    this.line += countNewlines(this.input, this.start, this.pos)
    this.thisItem(T.Comment)
    if (trimSpaces) this.pos += 2
    this.pos += this.rightDelim.length
    if (trimSpaces) this.pos += this.leftTrimLength()
    this.ignore()
    return S.Text
  }

  private lexRightDelim (): S | null {
    const { trimSpaces } = this.atRightDelim()
    if (trimSpaces) {
      this.pos += 2
      this.ignore()
    }
    this.pos += this.rightDelim.length
    const i = this.thisItem(T.RightDelim)
    if (trimSpaces) {
      this.pos += this.leftTrimLength()
      this.ignore()
    }
    this.insideAction = false
    return this.emitItem(i)
  }

  private lexInsideAction (): S | null {
    const { delim } = this.atRightDelim()
    if (delim) {
      if (this.parenDepth === 0) return S.RightDelim
      return this.errorf('unclosed left paren')
    }
    const r = this.next()
    if (r === EOF) return this.errorf('unclosed action')
    if (isSpace(r)) { this.backup(); return S.Space }
    switch (r) {
      case 61: return this.emit(T.Assign) // =
      case 58: // :
        if (this.next() !== 61) return this.errorf('expected :=')
        return this.emit(T.Declare)
      case 124: return this.emit(T.Pipe)
      case 34: return S.Quote
      case 96: return S.RawQuote
      case 36: return S.Variable
      case 39: return S.Char
      case 40:
        this.parenDepth++
        return this.emit(T.LeftParen)
      case 41:
        this.parenDepth--
        if (this.parenDepth < 0) return this.errorf('unexpected right paren')
        return this.emit(T.RightParen)
    }
    if (r === 46) { // '.'
      if (this.pos < this.input.length) {
        const c = this.input.charCodeAt(this.pos)
        if (c < 48 || c > 57) return S.Field
      }
      this.backup()
      return S.Number
    }
    if (r === 43 || r === 45 || (r >= 48 && r <= 57)) { this.backup(); return S.Number }
    if (isAlphaNumeric(r)) { this.backup(); return S.Identifier }
    if (r <= 0x7f && r >= 0x20 && r !== 0x7f) return this.emit(T.Char)
    return this.errorf(`unrecognized character in action: ${sharpU(r)}`)
  }

  private lexSpace (): S | null {
    let numSpaces = 0
    for (;;) {
      const r = this.peek()
      if (!isSpace(r)) break
      this.next()
      numSpaces++
    }
    if (hasRightTrimMarker(this.input, this.pos - 1) && this.input.startsWith(this.rightDelim, this.pos - 1 + 2)) {
      this.backup()
      if (numSpaces === 1) return S.RightDelim
    }
    return this.emit(T.Space)
  }

  private lexIdentifier (): S | null {
    for (;;) {
      const r = this.next()
      if (isAlphaNumeric(r)) continue
      this.backup()
      const word = this.input.slice(this.start, this.pos)
      if (!this.atTerminator()) return this.errorf(`bad character ${sharpU(r)}`)
      const key = KEYWORDS[word]
      if (key !== undefined && key > T.Keyword) {
        if ((key === T.Break && !this.options.breakOK) || (key === T.Continue && !this.options.continueOK)) return this.emit(T.Identifier)
        return this.emit(key)
      }
      if (word[0] === '.') return this.emit(T.Field)
      if (word === 'true' || word === 'false') return this.emit(T.Bool)
      return this.emit(T.Identifier)
    }
  }

  private lexFieldOrVariable (typ: T): S | null {
    if (this.atTerminator()) return this.emit(typ === T.Variable ? T.Variable : T.Dot)
    let r: number
    for (;;) {
      r = this.next()
      if (!isAlphaNumeric(r)) { this.backup(); break }
    }
    if (!this.atTerminator()) return this.errorf(`bad character ${sharpU(r)}`)
    return this.emit(typ)
  }

  private atTerminator (): boolean {
    const r = this.peek()
    if (isSpace(r)) return true
    switch (r) {
      case EOF: case 46: case 44: case 124: case 58: case 41: case 40: return true
    }
    return this.input.startsWith(this.rightDelim, this.pos)
  }

  private lexQuoted (q: string, typ: T, unterminated: string): S | null {
    for (;;) {
      const r = this.next()
      if (r === 92) { // backslash
        const n = this.next()
        if (n !== EOF && n !== 10) continue
        return this.errorf(unterminated)
      }
      if (r === EOF || r === 10) return this.errorf(unterminated)
      if (r === q.charCodeAt(0)) break
    }
    return this.emit(typ)
  }

  private lexRawQuote (): S | null {
    for (;;) {
      const r = this.next()
      if (r === EOF) return this.errorf('unterminated raw quoted string')
      if (r === 96) break
    }
    return this.emit(T.RawString)
  }

  private lexNumber (): S | null {
    if (!this.scanNumber()) return this.errorf(`bad number syntax: ${quote(this.input.slice(this.start, this.pos))}`)
    const sign = this.peek()
    if (sign === 43 || sign === 45) {
      if (!this.scanNumber() || this.input[this.pos - 1] !== 'i') return this.errorf(`bad number syntax: ${quote(this.input.slice(this.start, this.pos))}`)
      return this.emit(T.Complex)
    }
    return this.emit(T.Number)
  }

  private scanNumber (): boolean {
    this.accept('+-')
    let digits = '0123456789_'
    if (this.accept('0')) {
      if (this.accept('xX')) digits = '0123456789abcdefABCDEF_'
      else if (this.accept('oO')) digits = '01234567_'
      else if (this.accept('bB')) digits = '01_'
    }
    this.acceptRun(digits)
    if (this.accept('.')) this.acceptRun(digits)
    if (digits.length === 11 && this.accept('eE')) {
      this.accept('+-')
      this.acceptRun('0123456789_')
    }
    if (digits.length === 23 && this.accept('pP')) {
      this.accept('+-')
      this.acceptRun('0123456789_')
    }
    this.accept('i')
    if (isAlphaNumeric(this.peek())) {
      this.next()
      return false
    }
    return true
  }
}
