// The pieces of Go's standard library the API server's checks depend on, against answers recorded from Go 1.26
// (test/fixtures/apiserver/go-stdlib.json: net/mail.ParseAddress, url.ParseRequestURI, netip.ParseAddr and
// ParsePrefix), plus the date layouts of kube-openapi's formats and Kubernetes' name checks.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { isEmail } from '../../src/apiserver/email.js'
import { daysFromCivil } from '../../src/go/time.js'
import { parseGoDate, parseGoDateTime } from '../../src/apiserver/go-time.js'
import { addrString, isCIDRSloppy, isMAC, parseAddr, parseIPSloppy, parsePrefix } from '../../src/apiserver/ip.js'
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isPathSegment, isQualifiedName, isValidLabelValue, nameIsDNSLabel, regexError } from '../../src/apiserver/names.js'
import { parseRequestURI, parseURL, urlEscapedPath, urlHostname, urlPort, urlQuery, urlString } from '../../src/apiserver/url.js'

const oracle = JSON.parse(readFileSync(new URL('../fixtures/apiserver/go-stdlib.json', import.meta.url), 'utf8')) as Record<string, Record<string, string | boolean>>

t.test('net/mail.ParseAddress (the email format)', async t => {
  for (const [input, want] of Object.entries(oracle.email ?? {})) t.equal(isEmail(input), want, JSON.stringify(input))
})

t.test('url.ParseRequestURI', async t => {
  for (const [input, want] of Object.entries(oracle.uri ?? {})) {
    let got = 'ok'
    try { parseRequestURI(input) } catch (err) { got = (err as Error).message }
    t.equal(got, want, JSON.stringify(input))
  }
})

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

t.test('sloppy IPs and CIDRs, MAC addresses', async t => {
  t.ok(parseIPSloppy('010.1.1.1'))
  t.ok(parseIPSloppy('::ffff:1.2.3.4'))
  t.ok(parseIPSloppy('::'))
  t.notOk(parseIPSloppy('1.2.3'))
  t.notOk(parseIPSloppy('1.2.3.4.5'))
  t.notOk(parseIPSloppy('1::2::3'))
  t.notOk(parseIPSloppy('1:2:3:4:5:6:7:1.2.3.4'))
  t.notOk(parseIPSloppy('12345::'))
  t.notOk(parseIPSloppy('x'))
  t.ok(parseIPSloppy('1:2:3:4:5:6:1.2.3.4'))
  t.notOk(parseIPSloppy('1:2:3:4:5:6:7:8:9'))
  t.ok(isCIDRSloppy('10.0.0.0/8'))
  t.ok(isCIDRSloppy('010.0.0.0/08'))
  t.ok(isCIDRSloppy('::/128'))
  t.notOk(isCIDRSloppy('10.0.0.0/33'))
  t.notOk(isCIDRSloppy('10.0.0.0'))
  t.notOk(isCIDRSloppy('10.0.0.0/x'))
  for (const mac of ['00:11:22:33:44:55', '00-11-22-33-44-55', '0011.2233.4455', '00:00:5e:00:53:01:02:03', '00:00:00:00:fe:80:00:00:00:00:00:00:02:00:5e:10:00:00:00:01']) t.ok(isMAC(mac), mac)
  for (const mac of ['00:11:22', '00:11:22:33:44:5g', '00:11-22:33:44:55', '0011.2233.445', '001122334455', '0011.2233-4455']) t.notOk(isMAC(mac), mac)
})

t.test('the date and date-time layouts of kube-openapi', async t => {
  t.equal(parseGoDate('2024-02-29'), BigInt(daysFromCivil(2024, 2, 29)) * 86400n * 1_000_000_000n)
  t.equal(parseGoDate('2023-02-29'), undefined)
  t.equal(parseGoDate('2023-13-01'), undefined)
  t.equal(parseGoDate('23-01-01'), undefined)
  t.equal(parseGoDateTime('2021-01-01T10:00:00.5+02:00'), parseGoDateTime('2021-01-01T08:00:00.5Z'))
  t.equal(parseGoDateTime('2021-01-01T10:00:00'), parseGoDateTime('2021-01-01T10:00:00Z'))
  t.equal(parseGoDateTime('2021-01-01T24:00:00Z'), undefined)
  t.equal(parseGoDateTime('2021-01-01T10:00:00+24:00'), undefined)
  t.equal(parseGoDateTime('2021-01-01 10:00:00Z'), undefined)
})

t.test('Kubernetes name checks', async t => {
  t.same(isDNS1123Label('ok-1'), [])
  t.same(isDNS1123Label('a.b'), ['must not contain dots'])
  t.match(isDNS1123Label('A'), [/^a lowercase RFC 1123 label must consist of/])
  t.equal(isDNS1123Label('a'.repeat(64))[0], 'must be no more than 63 characters')
  t.same(isDNS1123Subdomain('a.b-c'), [])
  t.equal(isDNS1123Subdomain('a'.repeat(254)).length, 1)
  t.same(isDNS1035Label('a1'), [])
  t.equal(isDNS1035Label('1a').length, 1)
  t.equal(isDNS1035Label('a'.repeat(64)).length, 1)
  t.same(isQualifiedName('example.com/name'), [])
  t.same(isQualifiedName('/name'), ['prefix part must be non-empty'])
  t.match(isQualifiedName('Bad_Prefix/name'), [/^prefix part a lowercase RFC 1123 subdomain/])
  t.match(isQualifiedName('a/b/c'), [/^a valid label key must consist of/])
  t.same(isQualifiedName('prefix/'), ['name part must be non-empty', "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"])
  t.equal(isQualifiedName('a'.repeat(64))[0], 'name part must be no more than 63 bytes')
  t.same(isValidLabelValue(''), [])
  t.equal(isValidLabelValue('a'.repeat(64))[0], 'must be no more than 63 bytes')
  t.same(nameIsDNSLabel('abc-', true), [])
  t.same(isPathSegment('.', false), ["may not be '.'"])
  t.same(isPathSegment('a/b%', true), ["may not contain '/'", "may not contain '%'"])
  t.equal(regexError('msg', 're'), "msg (regex used for validation is 're')")
})

t.test('URL accessors', async t => {
  const u = parseURL('https://user@example.com:8080/a%20b/%2F?x=1&x=2&y=%zz&z&;w=1#frag%21')
  t.equal(u.scheme, 'https')
  t.equal(u.host, 'example.com:8080')
  t.equal(urlHostname(u), 'example.com')
  t.equal(urlPort(u), '8080')
  t.equal(urlEscapedPath(u), '/a%20b/%2F')
  t.same([...urlQuery(u)], [['x', ['1', '2']], ['z', ['']]])
  t.equal(u.fragment, 'frag!')
  t.equal(urlString(u), 'https://user@example.com:8080/a%20b/%2F?x=1&x=2&y=%zz&z&;w=1#frag%21')
  t.equal(urlString(parseURL('mailto:a@b.c')), 'mailto:a@b.c')
  t.equal(urlString(parseURL('/p?')), '/p?')
  t.equal(urlHostname(parseURL('http://[::1]:80/')), '::1')
  t.equal(urlEscapedPath(parseURL('*')), '*')
  t.throws(() => parseURL('1http://x'), /first path segment in URL cannot contain colon/)
  t.throws(() => parseURL('http://[::1/'), /missing '\]' in host/)
  t.throws(() => parseURL('http://x[::1]/'), /invalid IP-literal/)
  t.throws(() => parseURL('http://[::1]x/'), /invalid port "x" after host/)
  t.throws(() => parseURL('http://[zz]/'), /invalid host: ParseAddr/)
  t.throws(() => parseURL('http://[::1%25%0]/'), /invalid URL escape/)
  t.throws(() => parseURL('x#%zz'), /invalid URL escape "%zz"/)
})
