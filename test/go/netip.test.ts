// Go's net/netip (src/go/netip.ts): ParseAddr and ParsePrefix against the answers recorded from Go 1.26
// (test/fixtures/apiserver/go-stdlib.json), their messages word for word, and Addr.String.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { addrString, parseAddr, parsePrefix } from '../../src/go/netip.js'

const oracle = JSON.parse(readFileSync(new URL('../fixtures/apiserver/go-stdlib.json', import.meta.url), 'utf8')) as Record<string, Record<string, string | boolean>>

t.test('netip.ParseAddr and ParsePrefix', async t => {
  for (const [input, want] of Object.entries(oracle.addr ?? {})) {
    let got: string
    try { got = 'ok ' + addrString(parseAddr(input)) } catch (err) { got = (err as Error).message }
    t.equal(got, want, input)
  }
  for (const [input, want] of Object.entries(oracle.prefix ?? {})) {
    let got: string
    try {
      const p = parsePrefix(input)
      const masked = p.addr.bytes.map((b, i) => b & (0xff << (8 - Math.max(0, Math.min(8, p.bits - i * 8)))) & 0xff)
      got = `ok ${addrString(p.addr)}/${p.bits} ${addrString({ bytes: new Uint8Array(masked), zone: '' })}/${p.bits}`
    } catch (err) { got = (err as Error).message }
    t.equal(got, want, input)
  }
})
