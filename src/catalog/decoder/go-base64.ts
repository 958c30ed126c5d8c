// Go's base64.StdEncoding.Decode, which encoding/json runs on a string decoded into a []byte (GeneratePatches' and the
// in-place hooks' patches): standard alphabet, padding required, CR and LF skipped anywhere, trailing bits ignored.
// A port of Go 1.26's decodeQuantum for the verdict and the offset of its error.
/** The usual form, with a length that is a multiple of 4: the alphabet, then "=", "==" or nothing. */
const USUAL = /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]=|==)?$/
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const IN_ALPHABET = new Uint8Array(256)
for (const c of Buffer.from(ALPHABET)) IN_ALPHABET[c] = 1
const PAD = 0x3d
const isNewline = (c: number | undefined) => c === 0x0a || c === 0x0d

/** undefined when Go decodes the string, else Go's error (`illegal base64 data at input byte N`). */
export function goBase64Error (value: string): string | undefined {
  if ((value.length & 3) === 0 && USUAL.test(value)) return undefined
  const offset = corruptOffset(Buffer.from(value, 'utf8'))
  return offset === undefined ? undefined : `illegal base64 data at input byte ${offset}`
}

/** The bytes of a string Go decodes (see goBase64Error). */
export function goBase64Decode (value: string): Buffer {
  return Buffer.from(value.replace(/[\r\n]/g, ''), 'base64')
}

/** Go's Decode, quantum by quantum: the CorruptInputError offset, or undefined. */
function corruptOffset (src: Buffer): number | undefined {
  let si = 0
  while (si < src.length) {
    let j = 0
    for (; j < 4; j++) {
      if (si === src.length) {
        // Padding is required: a quantum cut short is an error where it began (one byte alone too).
        return j === 0 ? undefined : si - j
      }
      const c = src[si++] as number
      if (IN_ALPHABET[c] === 1) continue
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
