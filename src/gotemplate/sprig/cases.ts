// huandu/xstrings v1.5.0's case conversions as sprig uses them: snakecase and kebabcase split a string into words
// (runs of upper case, lower case, digits, punctuation and connectors) and join them lower case with a connector;
// camelcase is ToPascalCase. The rules are xstrings' own, including its treatment of digits next to letters.
import { isLetter, isPunct, isSpace, isUpper, toLower, toUpper } from './text.js'

const enum W { Invalid, Number, Upper, Alphabet, Connector, Punct, Other }

interface Word { t: W, s: string }

function isConnector (ch: string): boolean { return ch === '-' || ch === '_' || isSpace(ch.codePointAt(0) as number) }

function isAlphabet (ch: string): boolean {
  if (!isLetter(ch)) return false
  const r = ch.codePointAt(0) as number
  if (r < 0x3400) return true
  if (r >= 0x4e00 && r <= 0x9fcc) return false
  if (r >= 0x3400 && r <= 0x4d85) return false
  if (r >= 0x20000 && r <= 0x2b81d) return false
  return true
}

function isNumber (ch: string): boolean { return /^\p{N}$/u.test(ch) }

/** xstrings' nextWord over the runes from i: the word's type and its end. */
function nextWord (runes: string[], i: number): Word & { end: number } {
  const r = runes[i] as string
  let j = i + 1
  const run = (pred: (ch: string) => boolean): void => { while (j < runes.length && pred(runes[j] as string)) j++ }
  if (isConnector(r)) { run(isConnector); return { t: W.Connector, s: runes.slice(i, j).join(''), end: j } }
  if (isPunct(r)) { run(isPunct); return { t: W.Punct, s: runes.slice(i, j).join(''), end: j } }
  if (isUpper(r)) {
    if (j < runes.length) {
      const next = runes[j] as string
      if (isUpper(next)) {
        run(isUpper)
        // The last capital of a run followed by a letter starts the next word ("HTTPServer" → HTTP, Server).
        if (j < runes.length && isAlphabet(runes[j] as string)) j--
      } else if (isAlphabet(next)) run(ch => isAlphabet(ch) && !isUpper(ch))
    }
    return { t: W.Upper, s: runes.slice(i, j).join(''), end: j }
  }
  if (isAlphabet(r)) { run(ch => isAlphabet(ch) && !isUpper(ch)); return { t: W.Alphabet, s: runes.slice(i, j).join(''), end: j } }
  if (isNumber(r)) { run(isNumber); return { t: W.Number, s: runes.slice(i, j).join(''), end: j } }
  run(ch => !(isConnector(ch) || isAlphabet(ch) || isNumber(ch) || isPunct(ch)))
  return { t: W.Other, s: runes.slice(i, j).join(''), end: j }
}

function words (s: string): Word[] {
  const runes = [...s]
  const out: Word[] = []
  for (let i = 0; i < runes.length;) {
    const w = nextWord(runes, i)
    out.push({ t: w.t, s: w.s })
    i = w.end
  }
  return out
}

function lowerWord (w: Word, connector: string): string {
  if (w.t !== W.Upper && w.t !== W.Connector) return w.s
  return [...w.s].map(ch => isConnector(ch) ? connector : isUpper(ch) ? toLower(ch) : ch).join('')
}

/** xstrings.ToSnakeCase ('_') and ToKebabCase ('-'). */
export function toConnectedLower (s: string, connector: string): string {
  if (s === '') return ''
  const ws = words(s)
  let out = ''
  let k = 0
  const at = (): Word => ws[k] ?? { t: W.Invalid, s: '' }
  const notBoundary = (t: W): boolean => t !== W.Invalid && t !== W.Punct && t !== W.Connector
  while (k < ws.length - 1) {
    const prev = at()
    if (prev.t !== W.Connector) out += lowerWord(prev, connector)
    k++
    if (prev.t === W.Number) {
      while (k < ws.length && (at().t === W.Alphabet || at().t === W.Number)) { out += lowerWord(at(), connector); k++ }
      if (notBoundary(at().t)) out += connector
    } else if (prev.t === W.Connector) {
      out += lowerWord(prev, connector)
    } else if (prev.t !== W.Punct) {
      if (at().t !== W.Number) {
        if (at().t !== W.Connector && at().t !== W.Punct) out += connector
      } else if (k < ws.length - 1) {
        const digits = at()
        k++
        if (at().t !== W.Alphabet) {
          out += lowerWord(digits, connector)
          if (at().t !== W.Connector && at().t !== W.Punct) out += connector
        } else {
          out += connector + lowerWord(digits, connector)
          while (k < ws.length && (at().t === W.Alphabet || at().t === W.Number)) { out += lowerWord(at(), connector); k++ }
          if (notBoundary(at().t)) out += connector
        }
      }
    }
  }
  if (k < ws.length) out += lowerWord(at(), connector)
  return out
}

/** xstrings.ToPascalCase (sprig's camelcase). */
export function toPascalCase (s: string): string {
  if (s === '') return ''
  const runes = [...s]
  let out = ''
  let i = 0
  let firstUpper = false
  let r0 = ''
  for (; i < runes.length; i++) {
    const ch = runes[i] as string
    if (!isConnector(ch)) {
      firstUpper = isUpper(ch)
      r0 = toUpper(ch)
      i++
      break
    }
    out += ch
    r0 = ch
  }
  // xstrings writes the last rune again here, even a connector it already wrote.
  if (i >= runes.length) return out + r0
  for (; i < runes.length; i++) {
    const r1 = r0
    r0 = runes[i] as string
    if (isConnector(r0) && isConnector(r1)) { out += r1; continue }
    if (isConnector(r1)) {
      firstUpper = isUpper(r0)
      r0 = toUpper(r0)
    } else {
      if (firstUpper) {
        if (isUpper(r0)) r0 = toLower(r0)
        else firstUpper = false
      }
      out += r1
    }
  }
  return out + r0
}
