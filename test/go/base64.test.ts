// Go's encoding/base64 decoding (src/go/base64.ts): what StdEncoding and URLEncoding decode (padding required, CR
// and LF skipped) and where they stop. The verdicts and messages are Go 1.26's, printed by Go itself for these inputs
// (test/interop/decoder-parity.test.ts compares StdEncoding with Go on every request of its corpus).
import t from 'tap'
import { decodeError, decodeString } from '../../src/go/base64.js'

const BASE64: Array<[string, string | undefined]> = [
  ['', undefined],
  ['e30=', undefined],
  ['e30', 'illegal base64 data at input byte 0'],
  ['e3==', undefined],
  ['e===', 'illegal base64 data at input byte 1'],
  ['e30=\n', undefined],
  ['e3\r\n0=', undefined],
  ['e30=e30=', 'illegal base64 data at input byte 4'],
  ['e30=x', 'illegal base64 data at input byte 4'],
  ['-_8=', 'illegal base64 data at input byte 0'],
  ['QUJD', undefined],
  ['QUI=', undefined],
  ['QQ==', undefined],
  ['QQ=', 'illegal base64 data at input byte 3'],
  ['QQ', 'illegal base64 data at input byte 0'],
  ['Q', 'illegal base64 data at input byte 0'],
  ['QQ==\n\n', undefined],
  ['QQ=\n=', undefined],
  ['QQ=x', 'illegal base64 data at input byte 2'],
  ['é', 'illegal base64 data at input byte 0'],
  ['====', 'illegal base64 data at input byte 0'],
  ['QUJDRA', 'illegal base64 data at input byte 4'],
  ['QUJDRA=', 'illegal base64 data at input byte 7'],
  ['QUJDRA==', undefined],
]

// URLEncoding, which kube-openapi's `byte` format decodes with (strfmt.Base64).
const URL: Array<[string, string | undefined]> = [
  ['-_8=', undefined],
  ['e30=', undefined],
  ['+/8=', 'illegal base64 data at input byte 0'],
  ['a!bcd', 'illegal base64 data at input byte 1'],
  ['abcde', 'illegal base64 data at input byte 4'],
  ['ab=c', 'illegal base64 data at input byte 2'],
  ['YQ==\n', undefined],
  ['ab\r\ncd', undefined],
]

t.test('base64: what base64.StdEncoding decodes (padding required, CR and LF skipped) and where it stops', async t => {
  for (const [value, error] of BASE64) t.equal(decodeError(value), error, JSON.stringify(value))
})

t.test('base64: URLEncoding', async t => {
  for (const [value, error] of URL) t.equal(decodeError(value, 'url'), error, JSON.stringify(value))
})

t.test('base64: the bytes of what Go decodes, the error text of what it does not', async t => {
  t.same([...decodeString('QUJD\r\nRA==') as Buffer], [65, 66, 67, 68])
  t.same([...decodeString('-_8=', 'url') as Buffer], [0xfb, 0xff])
  t.equal(decodeString('QQ='), 'illegal base64 data at input byte 3')
})
