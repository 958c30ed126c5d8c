// Go's encoding/base64 decoding (StdEncoding and URLEncoding, both padded and not strict): padding required, CR and
// LF skipped anywhere, trailing bits ignored, and Go's CorruptInputError at the byte where Go stops. encoding/json
// decodes a []byte with StdEncoding (GeneratePatches' and the in-place hooks' patches), sprig's b64dec too, and
// kube-openapi's `byte` format (strfmt.Base64) uses URLEncoding. A port of Go 1.26's decodeQuantum for the verdict
// and the offset of its error; Node's decoder, lenient where Go is not, makes the bytes of what Go accepts.

/** Which of Go's padded encodings: StdEncoding (+ /) or URLEncoding (- _). */
type Encoding = 'std' | 'url'

const ALPHABETS: Record<Encoding, string> = {
  std: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
}
/** The usual form, with a length that is a multiple of 4: the alphabet, then "=", "==" or nothing. */
const USUAL: Record<Encoding, RegExp> = {
  std: /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]=|==)?$/,
  url: /^[A-Za-z0-9_-]*(?:[A-Za-z0-9_-]=|==)?$/
}
const IN_ALPHABET: Record<Encoding, Uint8Array> = { std: membership(ALPHABETS.std), url: membership(ALPHABETS.url) }
const PAD = 0x3d
const isNewline = (c: number | undefined) => c === 0x0a || c === 0x0d

function membership (alphabet: string): Uint8Array {
  const set = new Uint8Array(256)
  for (const c of Buffer.from(alphabet)) set[c] = 1
  return set
}

/** undefined when Go decodes the string, else Go's error (`illegal base64 data at input byte N`). */
export function decodeError (value: string, encoding: Encoding = 'std'): string | undefined {
  if ((value.length & 3) === 0 && USUAL[encoding].test(value)) return undefined
  const offset = corruptOffset(Buffer.from(value, 'utf8'), IN_ALPHABET[encoding])
  return offset === undefined ? undefined : `illegal base64 data at input byte ${offset}`
}

/** Encoding.DecodeString: the bytes, or Go's error text. */
export function decodeString (value: string, encoding: Encoding = 'std'): Buffer | string {
  return decodeError(value, encoding) ?? decodeAccepted(value, encoding)
}

/** The bytes of a string decodeError accepts (of any other, what Node's lenient decoder makes of it). */
export function decodeAccepted (value: string, encoding: Encoding = 'std'): Buffer {
  return Buffer.from(value.replace(/[\r\n]/g, ''), encoding === 'std' ? 'base64' : 'base64url')
}

/** Go's Decode, quantum by quantum: the CorruptInputError offset, or undefined. */
function corruptOffset (src: Buffer, inAlphabet: Uint8Array): number | undefined {
  let si = 0
  while (si < src.length) {
    let j = 0
    for (; j < 4; j++) {
      if (si === src.length) {
        // Padding is required: a quantum cut short is an error where it began (one byte alone too).
        return j === 0 ? undefined : si - j
      }
      const c = src[si++] as number
      if (inAlphabet[c] === 1) continue
      if (isNewline(c)) {
        j--
        continue
      }
      if (c !== PAD || j < 2) return si - 1
      if (j === 2) {
        // "==" is expected: the first "=" is consumed, newlines may come between.
        while (si < src.length && isNewline(src[si])) si++
        if (si === src.length) return src.length
        if (src[si] !== PAD) return si - 1
        si++
      }
      while (si < src.length && isNewline(src[si])) si++
      return si < src.length ? si : undefined
    }
  }
  return undefined
}
