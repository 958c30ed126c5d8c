// The pieces of Go the API server's checks depend on beyond src/go: net/mail.ParseAddress against answers recorded
// from Go 1.26 (test/fixtures/apiserver/go-stdlib.json), k8s.io/utils' sloppy IPs, net.ParseMAC, the date layouts of
// kube-openapi's formats and Kubernetes' name checks.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { isEmail } from '../../src/apiserver/email.js'
import { daysFromCivil } from '../../src/go/time.js'
import { parseGoDate, parseGoDateTime } from '../../src/apiserver/go-time.js'
import { isCIDRSloppy, isMAC, parseIPSloppy } from '../../src/apiserver/ip.js'
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isPathSegment, isQualifiedName, isValidLabelValue, nameIsDNSLabel, regexError } from '../../src/apiserver/names.js'

const oracle = JSON.parse(readFileSync(new URL('../fixtures/apiserver/go-stdlib.json', import.meta.url), 'utf8')) as Record<string, Record<string, string | boolean>>

t.test('net/mail.ParseAddress (the email format)', async t => {
  for (const [input, want] of Object.entries(oracle.email ?? {})) t.equal(isEmail(input), want, JSON.stringify(input))
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
