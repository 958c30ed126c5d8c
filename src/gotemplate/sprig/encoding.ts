// sprig's hermetic encoding and hashing functions: b64enc/b64dec and b32enc/b32dec with Go's standard encodings
// (decoding errors are returned as the function's string result, with Go's byte positions), sha1sum, sha256sum,
// sha512sum and adler32sum over the string's UTF-8 bytes.
import { createHash } from 'node:crypto'
import { decodeString as base64Decode } from '../../go/base64.js'
import { fn, type GoFunc, fromUtf8, utf8Bytes } from '../values.js'

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** base32.StdEncoding.DecodeString: the bytes, or Go's error text. */
function base32Decode (s: string): Uint8Array | string {
  const src = utf8Bytes(s.replace(/[\r\n]/g, ''))
  const olen = src.length
  const err = (at: number): string => `illegal base32 data at input byte ${at}`
  const out: number[] = []
  let p = 0
  let end = false
  while (p < olen && !end) {
    const d = new Array<number>(8).fill(0)
    let dlen = 8
    for (let j = 0; j < 8;) {
      const rest = olen - p
      if (rest === 0) return err(olen - rest - j)
      const c = src[p++] as number
      const remaining = olen - p
      if (c === 61 && j >= 2 && remaining < 8) {
        if (remaining + j < 7) return err(olen)
        for (let k = 0; k < 7 - j; k++) if (remaining > k && src[p + k] !== 61) return err(olen - remaining + k - 1)
        dlen = j
        end = true
        if (dlen === 1 || dlen === 3 || dlen === 6) return err(olen - remaining - 1)
        break
      }
      const v = c < 128 ? B32.indexOf(String.fromCharCode(c)) : -1
      if (v < 0) return err(olen - remaining - 1)
      d[j++] = v
    }
    const b = [
      (d[0] as number) << 3 | (d[1] as number) >> 2,
      ((d[1] as number) << 6 | (d[2] as number) << 1 | (d[3] as number) >> 4) & 0xff,
      ((d[3] as number) << 4 | (d[4] as number) >> 1) & 0xff,
      ((d[4] as number) << 7 | (d[5] as number) << 2 | (d[6] as number) >> 3) & 0xff,
      ((d[6] as number) << 5 | (d[7] as number)) & 0xff
    ].map(x => x & 0xff)
    const n = { 8: 5, 7: 4, 5: 3, 4: 2, 2: 1 }[dlen] ?? 0
    out.push(...b.slice(0, n))
    if (end) break
  }
  return Uint8Array.from(out)
}

function base32Encode (s: string): string {
  const bytes = utf8Bytes(s)
  let out = ''
  for (let i = 0; i < bytes.length; i += 5) {
    const chunk = bytes.subarray(i, i + 5)
    let bits = 0n
    for (let k = 0; k < 5; k++) bits = (bits << 8n) | BigInt(chunk[k] ?? 0)
    const chars = Math.ceil(chunk.length * 8 / 5)
    for (let k = 0; k < 8; k++) out += k < chars ? B32[Number((bits >> BigInt(35 - 5 * k)) & 31n)] : '='
  }
  return out
}

function adler32 (s: string): number {
  let a = 1
  let b = 0
  for (const byte of utf8Bytes(s)) {
    a = (a + byte) % 65521
    b = (b + a) % 65521
  }
  return (b * 65536 + a) >>> 0
}

const hash = (algo: string) => (s: string): string => createHash(algo).update(utf8Bytes(s)).digest('hex')

/** The encoding and hashing functions of sprig's hermetic map. */
export const ENCODING: Record<string, GoFunc> = {
  b64enc: fn(['string'], 'string', (s: string) => Buffer.from(utf8Bytes(s)).toString('base64')),
  b64dec: fn(['string'], 'string', (s: string) => {
    const r = base64Decode(s)
    return typeof r === 'string' ? r : fromUtf8(r, 'the decoded base64 data')
  }),
  b32enc: fn(['string'], 'string', base32Encode),
  b32dec: fn(['string'], 'string', (s: string) => {
    const r = base32Decode(s)
    return typeof r === 'string' ? r : fromUtf8(r, 'the decoded base32 data')
  }),
  sha1sum: fn(['string'], 'string', hash('sha1')),
  sha256sum: fn(['string'], 'string', hash('sha256')),
  sha512sum: fn(['string'], 'string', hash('sha512')),
  adler32sum: fn(['string'], 'string', (s: string) => String(adler32(s)))
}
