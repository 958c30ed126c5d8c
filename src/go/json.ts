// Go's encoding/json marshalling rules, the parts every walker of values shares: how a string is written (HTML-safe
// escapes unless an Encoder turns them off, U+2028/U+2029 always escaped, a broken character as \ufffd), how a
// float64 is written (ES6-like: an exponent below 1e-6 and from 1e21, e-7 not e-07; NaN and ±Inf refused) and in
// which order a map's keys come (sorted by bytes). sprig's toJson and the API server's messages both print through these.
import { formatFloat } from './strconv.js'
import { compare } from './strings.js'

/** A Marshal failure, with Go's error text. */
export class JsonError extends Error {}

const HEX = '0123456789abcdef'

/** The JSON string literal of s, as Marshal writes it (escapeHTML: false as Encoder.SetEscapeHTML(false) writes it). */
export function encodeString (s: string, escapeHTML = true): string {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0) as number
    if (c < 0x80) {
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c && !(escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26))) { out += ch; continue }
      switch (c) {
        case 0x22: out += '\\"'; continue
        case 0x5c: out += '\\\\'; continue
        case 0x08: out += '\\b'; continue
        case 0x0c: out += '\\f'; continue
        case 0x0a: out += '\\n'; continue
        case 0x0d: out += '\\r'; continue
        case 0x09: out += '\\t'; continue
      }
      out += '\\u00' + HEX[c >> 4] + HEX[c & 15]
      continue
    }
    if (c === 0x2028 || c === 0x2029) { out += '\\u202' + HEX[c & 15]; continue }
    // A lone surrogate stands for bytes that are not UTF-8, which Go writes as the escape \ufffd.
    if (c >= 0xd800 && c <= 0xdfff) { out += '\\ufffd'; continue }
    out += ch
  }
  return out + '"'
}

/** A float64 as Marshal writes it; NaN and ±Inf are a JsonError (`json: unsupported value: NaN`). */
export function encodeFloat (f: number): string {
  if (!Number.isFinite(f)) throw new JsonError(`json: unsupported value: ${formatFloat(f, 'g', -1)}`)
  const abs = Math.abs(f)
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) return formatFloat(f, 'e', -1).replace(/e-0(\d)$/, 'e-$1')
  return formatFloat(f, 'f', -1)
}

/** A map's keys in the order Marshal writes them. */
export function sortedKeys (keys: Iterable<string>): string[] {
  return [...keys].sort(compare)
}
