// sprig's deterministic crypto functions: derivePassword (the Master Password algorithm: scrypt over the user,
// HMAC-SHA256 over the site and counter, characters from the password type's templates) and decryptAES (AES-256-CBC,
// the key the password's bytes zero-padded, the IV the first block, PKCS#7 padding dropped without checks, with Go's
// runtime panics on short or ragged input).
import { createDecipheriv, createHmac, scryptSync } from 'node:crypto'
import { fn, GoCallError, type GoFunc, GoInt, fromUtf8, utf8Bytes } from '../values.js'
import { decodeString as base64Decode } from '../../go/base64.js'

const SEED = 'com.lyndir.masterpassword'

// The Master Password templates by password type, and the characters each template letter stands for.
const TEMPLATES: Record<string, string[]> = {
  maximum: ['anoxxxxxxxxxxxxxxxxx', 'axxxxxxxxxxxxxxxxxno'],
  long: ['CvcvnoCvcvCvcv', 'CvcvCvcvnoCvcv', 'CvcvCvcvCvcvno', 'CvccnoCvcvCvcv', 'CvccCvcvnoCvcv', 'CvccCvcvCvcvno', 'CvcvnoCvccCvcv',
    'CvcvCvccnoCvcv', 'CvcvCvccCvcvno', 'CvcvnoCvcvCvcc', 'CvcvCvcvnoCvcc', 'CvcvCvcvCvccno', 'CvccnoCvccCvcv', 'CvccCvccnoCvcv',
    'CvccCvccCvcvno', 'CvcvnoCvccCvcc', 'CvcvCvccnoCvcc', 'CvcvCvccCvccno', 'CvccnoCvcvCvcc', 'CvccCvcvnoCvcc', 'CvccCvcvCvccno'],
  medium: ['CvcnoCvc', 'CvcCvcno'],
  short: ['Cvcn'],
  basic: ['aaanaaan', 'aannaaan', 'aaannaaa'],
  pin: ['nnnn']
}

const CHARACTERS: Record<string, string> = {
  V: 'AEIOU',
  C: 'BCDFGHJKLMNPQRSTVWXYZ',
  v: 'aeiou',
  c: 'bcdfghjklmnpqrstvwxyz',
  A: 'AEIOUBCDFGHJKLMNPQRSTVWXYZ',
  a: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz',
  n: '0123456789',
  o: '@&%?,=[]_:-+*$#!\'^~;()/.',
  x: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()'
}

function u32 (n: number | bigint): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(Number(n))
  return b
}

function derivePassword (counter: GoInt, type: string, password: string, user: string, site: string): string {
  const templates = TEMPLATES[type]
  if (templates === undefined) return `cannot find password template ${type}`
  const userBytes = utf8Bytes(user)
  const salt = Buffer.concat([Buffer.from(SEED), u32(userBytes.length), userBytes])
  const key = scryptSync(utf8Bytes(password), salt, 64, { N: 32768, r: 8, p: 2, maxmem: 256 * 1024 * 1024 })
  const siteBytes = utf8Bytes(site)
  const seed = createHmac('sha256', key).update(Buffer.concat([Buffer.from(SEED), u32(siteBytes.length), siteBytes, u32(counter.v)])).digest()
  const template = templates[(seed[0] as number) % templates.length] as string
  return [...template].map((letter, i) => {
    const chars = CHARACTERS[letter] as string
    return chars[(seed[i + 1] as number) % chars.length]
  }).join('')
}

function decryptAES (password: string, crypt64: string): string {
  if (crypt64 === '') return ''
  const key = Buffer.alloc(32)
  Buffer.from(utf8Bytes(password)).copy(key)
  const crypt = base64Decode(crypt64)
  if (typeof crypt === 'string') throw new GoCallError(crypt)
  if (crypt.length < 16) throw new GoCallError(`runtime error: slice bounds out of range [:16] with capacity ${Math.floor(utf8Bytes(crypt64).length / 4) * 3}`)
  const body = crypt.subarray(16)
  if (body.length % 16 !== 0) throw new GoCallError('crypto/cipher: input not full blocks')
  if (body.length === 0) throw new GoCallError('runtime error: index out of range [-1]')
  const decipher = createDecipheriv('aes-256-cbc', key, crypt.subarray(0, 16))
  decipher.setAutoPadding(false)
  const plain = Buffer.concat([decipher.update(body), decipher.final()])
  const end = plain.length - (plain[plain.length - 1] as number)
  if (end < 0) throw new GoCallError(`runtime error: slice bounds out of range [:${end}]`)
  return fromUtf8(plain.subarray(0, end), 'the decrypted text')
}

/** derivePassword and decryptAES of sprig's hermetic map. */
export const CRYPTO: Record<string, GoFunc> = {
  derivePassword: fn(['uint32', 'string', 'string', 'string', 'string'], 'string', derivePassword),
  decryptAES: fn(['string', 'string'], 'string', decryptAES, { returnsError: true })
}
