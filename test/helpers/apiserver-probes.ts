// The CEL probe sets of the apiserver-schema proof: CRDs whose rules report a value (a failing rule's
// messageExpression) or a runtime error (a failing rule), each with the object they run on. The e2e test
// (test/e2e/apiserver-schema.test.ts) asks the API server, test/apiserver/recorded.test.ts replays the answers.
// The sets here add values typed from a schema (set and map lists, formats, int-or-string, escaped names, embedded
// resources), edge cases of the libraries, and the errors of values of the wrong type at run time (dyn()), of the
// libraries' bad inputs and of overflows; every error probe reads `self`, so that it fails when the object is
// validated rather than when the API server loads the CRD.
import type { JSONSchemaProps } from '../../src/apiserver/index.js'
import { ERROR_PROBE_PROPS, ERROR_PROBE_SPEC, ERROR_PROBES, MORE_VALUE_PROBES, VALUE_PROBES } from './apiserver-cases.js'
import { probeCRD, type TestCRD, valueProbeCRDs } from './apiserver-crds.js'

/** One probe CRD: its rules' expressions, the spec they run on, and whether they report values or errors. */
export interface ProbeSet {
  /** key names the answer in test/fixtures/apiserver/answers.json. */
  key: string
  crd: TestCRD
  spec: Record<string, unknown>
  probes: readonly string[]
  /** values: each rule is `false` with the probe as messageExpression; otherwise the probe is the rule. */
  values: boolean
}

const int: JSONSchemaProps = { type: 'integer' }
const mapItem: JSONSchemaProps = { type: 'object', required: ['k'], properties: { k: { type: 'string', maxLength: 5 }, v: int } }
const mapList: JSONSchemaProps = { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], maxItems: 5, items: mapItem }
const setList: JSONSchemaProps = { type: 'array', 'x-kubernetes-list-type': 'set', maxItems: 5, items: int }

/** A spec whose values get their CEL types from the schema. */
const TYPED_PROPS: Record<string, JSONSchemaProps> = {
  set: setList,
  set2: setList,
  ml: mapList,
  ml2: mapList,
  b: { type: 'string', format: 'byte', maxLength: 20 },
  d: { type: 'string', format: 'duration', maxLength: 20 },
  date: { type: 'string', format: 'date', maxLength: 20 },
  dt: { type: 'string', format: 'date-time', maxLength: 40 },
  ios: { 'x-kubernetes-int-or-string': true },
  ios2: { 'x-kubernetes-int-or-string': true },
  'foo-bar': int,
  'x.y': int,
  __u: int,
  if: int,
  'a/b': int,
  nul: { type: 'string', nullable: true, maxLength: 5 },
  dbl: { type: 'number' },
  emb: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { n: int } } } },
  ap: { type: 'object', additionalProperties: { type: 'string', maxLength: 5 }, maxProperties: 5 },
  el: { type: 'array', items: int, maxItems: 5 },
  em: { type: 'object', additionalProperties: int, maxProperties: 5 },
  eo: { type: 'object', properties: { a: int } }
}

const TYPED_SPEC: Record<string, unknown> = {
  set: [1, 2],
  set2: [2, 3],
  ml: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }],
  ml2: [{ k: 'b', v: 20 }, { k: 'c', v: 3 }],
  b: 'aGk=',
  d: '1h30m',
  date: '2020-02-29',
  dt: '2020-01-01T10:00:00.5+02:00',
  ios: 5,
  ios2: '50%',
  'foo-bar': 1,
  'x.y': 2,
  __u: 3,
  if: 4,
  'a/b': 5,
  nul: null,
  dbl: 2,
  emb: { apiVersion: 'v1', kind: 'K', metadata: { name: 'n' }, spec: { n: 1 } },
  ap: { x: 'a', y: 'b' },
  el: [],
  em: {},
  eo: {}
}

/** Values typed from the schema: set and map lists (their + and ==), formats, int-or-string, escaping, embedded. */
const TYPED_VALUE_PROBES: readonly string[] = [
  "'%s'.format([self.set + self.set2])", "'%s'.format([dyn(self.ml) + self.ml2])", "'%s'.format([dyn(self.set) + [2, 9]])",
  "'%s'.format([[self.set == [2, 1], self.set == self.set2, [2, 1] == self.set, self.ml == [self.ml[1], self.ml[0]], self.set2 + [1] == [1, 2, 3]]])",
  "'%s'.format([[2 in self.set, self.set.exists(x, x == 2), self.ml.map(x, x.k), self.ml.exists(x, x.v == 2), 'a' in self.ml.map(x, x.k)]])",
  "'%s'.format([[string(self.b), size(self.b), self.b == b'hi', type(self.b) == bytes]])",
  "'%s'.format([[string(self.d), self.d.getMinutes(), self.d > duration('1h'), type(self.d)]])",
  "'%s'.format([[string(self.date), self.date.getDayOfYear(), string(self.dt), self.dt.getHours(), self.dt.getHours('+02:00'), self.dt.getMilliseconds()]])",
  "'%s'.format([[self.dt < timestamp('2020-01-01T09:00:00Z'), self.date < self.dt, self.d + duration('30m'), self.dt + self.d, self.dt - self.d]])",
  "'%s'.format([[self.ios, self.ios2, type(self.ios) == int, type(self.ios2) == string]])",
  "'%s'.format([[self.foo__dash__bar, self.x__dot__y, self.__underscores__u, self.__if__, self.a__slash__b, has(self.foo__dash__bar)]])",
  "'%s'.format([dyn(self).filter(k, k.contains('__')).sort()])",
  "'%s'.format([[has(self.nul), self.?nul.hasValue(), size(dyn(self))]])",
  "'%s'.format([[self.emb.kind, self.emb.apiVersion, self.emb.metadata.name, self.emb.spec.n, has(self.emb.metadata.generateName)]])",
  "'%s'.format([self.ap])", "'%s'.format([[self.ap.x, 'x' in self.ap, self.ap.map(k, k + self.ap[k]).sort(), self.ap.all(k, v, v.size() == 1)]])",
  "'%s'.format([[self.dbl, type(self.dbl) == double, self.dbl == 2.0, self.dbl / 4.0]])",
  "'%s'.format([[self.ml.filter(x, x.v > 1).size(), self.set.sum(), self.set.max(), self.set.isSorted(), self.set.indexOf(2)]])",
  "'%s'.format([self.ml.sortBy(x, -x.v).map(x, x.k)])",
  "'%s'.format([[optional.ofNonZeroValue(self.el).hasValue(), optional.ofNonZeroValue(self.em).hasValue(), optional.ofNonZeroValue(self.eo).hasValue(), optional.ofNonZeroValue(self.set).hasValue(), optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00Z')).hasValue()]])"
]

/** Edge cases of the standard library and the extensions (arithmetic, conversions, times, zero values, strings, quantities). */
const EDGE_VALUE_PROBES: readonly string[] = [
  "'%s'.format([[1.5 + 2.25, 1.5 - 2.25, b'ab' + b'c', duration('1s') + timestamp('2020-01-01T00:00:00Z'), duration('1s') + duration('2s'), duration('1s') - duration('3s'), -dyn(duration('90s'))]])",
  "'%s'.format([[int(5), int(5u), int(timestamp('1969-12-31T23:59:59.5Z')), uint(5u), double(2.5), double(7u), string('s'), bytes(b'z'), bool(true)]])",
  "'%s'.format([[timestamp(timestamp('2020-01-01T00:00:00Z')), duration(duration('1m')), 1 != 2, 'a' != 'a', dyn([1]) != [1.0], {'a': 1} != {'a': 2}]])",
  "'%s'.format([[timestamp('1969-12-31T23:59:59.5Z').getSeconds(), timestamp('1969-12-31T23:59:59.5Z').getMilliseconds(), timestamp('1960-06-15T12:00:00Z').getDayOfWeek(), timestamp('1969-12-31T23:59:59.5Z')]])",
  "'%s'.format([[timestamp('2020-01-01T00:00:00-05:30'), timestamp('2020-01-01T00:00:00.123456789+00:00'), timestamp('2020-01-01T23:59:59+14:00'), timestamp('2020-01-01T00:00:00.1234567891Z')]])",
  "'%s'.format([[timestamp('2020-01-01T00:00:00+24:00'), timestamp('2020-01-01T00:00:00+23:60'), timestamp('2020-01-01T00:00:00,5Z')]])",
  "'%s'.format([[timestamp('2020-01-01T00:00:00Z').getHours('-05:30'), timestamp('2020-01-01T00:00:00Z').getMinutes('05:30'), timestamp('2020-01-01T00:00:00Z').getHours('America/New_York'), timestamp('2020-01-01T00:00:00Z').getHours('+0:0')]])",
  "'%s'.format([[optional.ofNonZeroValue(false).hasValue(), optional.ofNonZeroValue(0.0).hasValue(), optional.ofNonZeroValue(b'').hasValue(), optional.ofNonZeroValue(0u).hasValue(), optional.ofNonZeroValue({}).hasValue()]])",
  "'%s'.format([[optional.ofNonZeroValue(duration('0s')).hasValue(), optional.ofNonZeroValue(timestamp(0)).hasValue(), optional.ofNonZeroValue(optional.none()).hasValue(), optional.ofNonZeroValue(true).hasValue(), [1, 2].first().value(), [].last().hasValue()]])",
  "'%s'.format([['abc'.indexOf('', 5), 'abc'.indexOf('', -1), 'abc'.lastIndexOf('', 7), 'abc'.lastIndexOf('', -2), 'abc'.lastIndexOf('c', 9), 'abc'.lastIndexOf('bc', 2), 'aé'.lastIndexOf('é'), 'a'.lastIndexOf('abc')]])",
  "'%s'.format([[quantity('0').isInteger(), quantity('1').sub(1).isInteger(), quantity('-1.5').add(quantity('0.5')).asInteger(), quantity('1m').isGreaterThan(quantity('0')), quantity('5').isLessThan(quantity('5.1')), quantity('0.000000001').asApproximateFloat(), quantity('1e-3').isInteger(), quantity('+1').asInteger()]])",
  "'%s'.format([[isQuantity('1.'), isQuantity('.'), isQuantity('-.5'), isQuantity('1Ki5'), isQuantity('1e999999999999999999999'), isQuantity('1E'), isQuantity('00.5m'), quantity('1.5Mi').asApproximateFloat(), quantity('1.5e-10').asApproximateFloat()]])",
  "'%s'.format([[1.0 / 0.0 > 1, -1.0 / 0.0 < -5, 1 < 1.0 / 0.0, 1u < 1.0 / 0.0, -1.0 / 0.0 < 0u, 2.5 > 2, -2.5 < -2, 0.5 < 1u]])",
  "'%s'.format([[ip('2001:db8::1').isGlobalUnicast(), ip('ff00::1').isGlobalUnicast(), ip('fe80::1').isGlobalUnicast(), ip('169.254.0.1').isLinkLocalUnicast(), ip('224.0.0.255').isLinkLocalMulticast(), ip('::1').isUnspecified()]])",
  "'%s'.format([[string(cidr('::1/128').ip()), string(cidr('2001:db8::1/0').masked()), cidr('10.0.0.0/8').containsCIDR('::/0'), cidr('10.0.0.0/8').containsIP(ip('::1')), ip('10.0.0.1') == ip('::a00:1'), cidr('::/0').prefixLength()]])",
  "'%s'.format([[semver('1.2.3').isGreaterThan(semver('1.2.3')), semver('2.0.0').compareTo(semver('1.9.9')), semver('1.2.3-a.1').compareTo(semver('1.2.3-a.b')), semver('1.2.3-alpha.beta').compareTo(semver('1.2.3-alpha.1')), semver('1.2.3-rc.1').compareTo(semver('1.2.3-rc.1.1')), semver('0.1.0').isLessThan(semver('0.1.1'))]])",
  "'%s'.format([[url('https://example.com:').getPort(), url('http://[::1]').getHostname(), url('http://user:pass@host/').getHost(), url('https://x.com/%41').getEscapedPath(), isURL('https://x.com/%zz'), url('https://x.com/a?').getQuery()]])",
  "'%s'.format([[format.dns1035LabelPrefix().validate('a-').hasValue(), format.labelValue().validate('-a').value(), format.dns1123Label().validate('').value()]])",
  "'%s'.format([['abc'.replace('b', 'x', -1), 'a b c'.split(' ', 2)]])", "'%s'.format([[''.substring(0), 'x'.charAt(1), 'ÀÉ'.lowerAscii(), '  '.trim()]])",
  "'%.2e|%s|%d|%x|%o|%b'.format([1.0, 3.0, 3u, -255, -8, false])",
  "'%s'.format([[dyn(1).orValue(2), optional.none().or(dyn(2)) == dyn(2), optional.of(1).or(dyn(2)).value(), optional.none().orValue(3)]])"
]

/** More fields for the error probes: an object, bytes that are not base64url or UTF-8, and named strings (below). */
const ERROR_PROPS_2: Record<string, JSONSchemaProps> = {
  obj: { type: 'object', properties: { a: int } },
  bin: { type: 'string', format: 'byte', maxLength: 8 },
  bin2: { type: 'string', format: 'byte', maxLength: 8 }
}

const ERROR_SPEC_2: Record<string, unknown> = {
  obj: { a: 1 },
  bin: '/w==',
  bin2: 'wyg=',
  empty: '',
  semAlpha: '1.a.3',
  preEmpty: '1.2.3-',
  pre01: '1.2.3-01',
  preBad: '1.2.3-a_b',
  buildEmpty: '1.2.3+',
  buildBad: '1.2.3+a_b',
  shortPre: 'v1.2-rc',
  huge: '99999999999999999999.0.0',
  cidr: '1.2.3.0/24',
  mappedPrefix: '::ffff:1.2.3.0/120',
  badURL: 'http://a b',
  fmtE: '%e',
  fmtF: '%f',
  fmtX: '%x',
  fmtO: '%o',
  fmtB: '%b',
  fmtD: '%d',
  fmtS: '%s',
  fmtPct: '%',
  fmtPrecNone: '%.f',
  fmtPrecOpen: '%.3',
  q100Ei: '100Ei',
  longDur: '3000000h',
  y10k: '10000-01-01T00:00:00Z',
  ts0: '0001-01-01T00:00:00Z',
  tsMax: '9999-12-31T23:59:59Z',
  lookahead: '(?=a)',
  ip: '1.2.3.4',
  tzBadMinute: '+05:61',
  tzBadHour: 'x:00',
  tzBadMinute2: '05:xx',
  feb30: '2020-02-30T00:00:00Z',
  zone25: '2020-01-01T00:00:00+25:00'
}

/** Runtime errors: operators and functions on values of the wrong type, overflows, the libraries' bad inputs. */
const MORE_ERROR_PROBES: readonly string[] = [
  // operators
  'dyn(self.s) - 1 == 0', 'dyn(self.one) - dyn(self.s) == 0', 'dyn(self.s) * 2 == 0', 'dyn(self.s) / 2 == 0', 'dyn(self.f) % dyn(self.f) == 0.0', 'dyn(self.s) % 2 == 0',
  '-dyn(self.s) == 0', 'dyn(self.l) < dyn(self.l)', 'dyn(self.l) + dyn(self.one) == []', 'dyn(self.m) + dyn(self.m) == {}',
  'self.f < double(self.zero) / double(self.zero)', 'double(self.zero) / double(self.zero) < self.f',
  'uint(self.big) * 4096u * 4096u > 0u', 'uint(self.zero) - uint(self.one) == 0u', 'uint(self.one) / uint(self.zero) == 0u', 'uint(self.one) % uint(self.zero) == 0u',
  '-(-9223372036854775807 - self.one) > 0', '(-9223372036854775807 - self.one) / -1 == 0', '(-9223372036854775807 - self.one) % -1 == 0',
  'size(dyn(self.one)) == 1', 'dyn(self.one).size() == 1',
  // conversions
  'int(dyn(self.l)) == 1', 'uint(dyn(self.l)) == 1u', 'double(dyn(self.l)) == 1.0', "string(dyn(self.l)) == ''", "bytes(dyn(self.one)) == b''", 'bool(dyn(self.one))', 'bool(self.s)',
  'timestamp(dyn(self.f)) > timestamp(0)', "duration(dyn(self.one)) > duration('0s')", 'uint(self.s) == 0u', 'double(self.s) == 0.0', 'uint(self.f * 1e20) == 0u', 'uint(-self.f) == 0u',
  'int(uint(self.big) * 2048u) == 0', "string(self.bin) == ''", "string(self.bin2) == ''", 'timestamp(self.big) > timestamp(0)', 'timestamp(self.y10k) > timestamp(0)',
  'timestamp(self.ts0) - duration(self.oneSecond) > timestamp(0)', "timestamp(self.ts0) - timestamp(self.tsMax) < duration('0s')",
  "duration(self.longDur) > duration('0s')", 'timestamp(self.feb30) > timestamp(0)', 'timestamp(self.zone25) > timestamp(0)',
  "timestamp('2020-01-01T00:00:00Z').getHours(self.tzBadMinute) == 0", "timestamp('2020-01-01T00:00:00Z').getHours(self.tzBadHour) == 0",
  "timestamp('2020-01-01T00:00:00Z').getHours(self.tzBadMinute2) == 0",
  // selection, indexing, membership
  'dyn(self.one).x == 1', 'has(dyn(self.one).x)', "dyn(self.l)['a'] == 1", 'dyn(self.one)[0] == 1', 'dyn(self.m)[1] == 1', 'dyn(self.obj)[1] == 1', 'dyn(self.one)[?0].hasValue()',
  'dyn(self.l)[uint(self.one) + 5u] == 1', 'dyn(self.one) in dyn(self.s)', 'dyn(self.l) in dyn(self.m)', 'dyn(self.one) in dyn(self.obj)', 'dyn(self.obj).zz == 1', 'self.m.zz == 1',
  // logic and comprehensions
  '!dyn(self.one)', 'dyn(self.one) && self.one == 1', 'dyn(self.one) || self.one == 2', 'dyn(self.one).all(x, x > 0)', 'dyn(self.one).all(i, v, v > 0)', 'dyn(self.s).exists(x, x == 1)',
  // lists, sets, regexes
  'dyn(self.s).sum() == 0', 'dyn(self.mixed).sum() == 0', 'dyn(self.mixed).min() == 0', 'dyn(self.mixed).isSorted()', 'dyn(self.mixed).sort() == []',
  'self.l.slice(-self.one, 1) == []', 'self.l.slice(2, self.one) == []', 'dyn(self.s).reverse() == []',
  'self.l.filter(x, x > 5).max() == 1', 'sets.contains(dyn(self.s), [1])', "dyn(self.one).find('a') == ''", "self.s.find(self.lookahead) == ''",
  "self.l.transformMapEntry(i, v, {'k': v}).size() == 1", 'dyn(self.mixed).sortBy(x, x) == []',
  // strings and format()
  "dyn(self.one).charAt(0) == ''", "self.s.indexOf('x', -self.one) == 0", "self.s.lastIndexOf('x', -self.one) == 0", "self.s.substring(self.one + 5) == ''",
  "self.s.substring(0, self.one + 5) == ''", "dyn(self.l).join() == ''", "dyn(self.one).join() == ''",
  "self.fmtE.format([self.s]) == ''", "self.fmtF.format([self.l]) == ''", "self.fmtX.format([self.f]) == ''", "self.fmtO.format([self.s]) == ''", "self.fmtB.format([self.s]) == ''",
  "self.fmtPct.format([self.one]) == ''", "self.fmtPrecNone.format([self.f]) == ''", "self.fmtPrecOpen.format([self.f]) == ''", "self.fmtS.format([optional.of(self.one)]) == ''",
  "self.fmtS.format([[optional.of(self.one)]]) == ''", "self.fmtS.format([ip(self.ip)]) == ''", "self.fmtD.format([self.f]) == ''", "self.fmtX.format([[self.one]]) == ''",
  "dyn(self.one).format([]) == ''",
  // the Kubernetes libraries
  'ip(self.cidr).family() == 4', 'cidr(self.s).prefixLength() == 0', 'ip.isCanonical(self.mapped)', 'cidr(self.mappedPrefix).prefixLength() == 1',
  "cidr('10.0.0.0/8').containsIP(self.s)", "cidr('10.0.0.0/8').containsCIDR(self.s)", "url(self.badURL).getHost() == ''",
  'semver(self.empty).major() == 0', 'semver(self.semAlpha).major() == 0', 'semver(self.preEmpty).major() == 0', 'semver(self.pre01).major() == 0',
  'semver(self.preBad).major() == 0', 'semver(self.buildEmpty).major() == 0', 'semver(self.buildBad).major() == 0', 'semver(self.shortPre, true).major() == 0',
  'semver(self.huge).major() == 0', 'quantity(self.s).isInteger()', 'quantity(self.q100Ei).asInteger() == 0', "quantity('9223372036854775807').add(self.one).asInteger() == 0",
  'dyn(self.one).major() == 0', "format.named(self.s).value().validate('x').hasValue()",
  // optionals
  'dyn(self.one).hasValue()', 'optional.of(self.one).optMap(x, x / self.zero).value() == 0', 'dyn(self.one).optMap(x, x).hasValue()',
  'optional.of(self.one).optFlatMap(x, dyn(x)).hasValue()',
  // list functions on values of the wrong type at run time
  'dyn([self.l]).isSorted()', '[dyn(self.one), dyn(self.l)].isSorted()', '[dyn(self.s), dyn(self.one)].sum() == 0', 'dyn(self.one).flatten() == []', 'dyn(self.one).flatten(1) == []',
  'dyn(self.one).slice(0, 1) == []', 'dyn(self.one).distinct() == []', 'sets.intersects(dyn(self.s), [1])',
  'sets.equivalent([1], dyn(self.s))', "dyn(self.one).findAll('a') == []", 'self.s.findAll(self.paren) == []', "dyn(self.one).split(',') == []", 'dyn(self.one).indexOf(1) == 0',
  'dyn(self.one).lastIndexOf(1) == 0', '[1].indexOf(dyn(self.s)) == 0', 'dyn([self.l]).min() == []', 'dyn(self.l).sort() == dyn(self.s)'
]

const chunks = <T>(xs: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size))

const errorProps: Record<string, JSONSchemaProps> = {
  ...ERROR_PROBE_PROPS,
  ...Object.fromEntries(Object.entries(ERROR_SPEC_2).filter(([, v]) => typeof v === 'string').map(([k]) => [k, { type: 'string', maxLength: 40 }])),
  ...ERROR_PROPS_2
}
const errorSpec = { ...ERROR_PROBE_SPEC, ...ERROR_SPEC_2 }

/** Every probe set, in the order the e2e test asks them. */
/** find, findAll and matches with patterns that backtrack exponentially elsewhere, and group names used twice. */
const HOSTILE_VALUE_PROBES: readonly string[] = [
  "'%s'.format([[self.forty.matches('^(a+)+$'), self.forty.matches('(a|aa)+$'), self.forty.find('(a*)*b'), self.forty.findAll('a+!'), self.forty.findAll('a', 3)]])",
  "'%s'.format([[self.xs.find('(x+x+)+y'), size(self.xs.findAll('(x+x+)+y')), self.xs.matches('^(x+x+)+y$'), self.xs.find('x{3}$')]])",
  "'%s'.format([['ab'.find('(?P<n>a)|(?P<n>b)'), 'ab'.findAll('(?P<n>a)|(?P<n>b)'), 'a😀b'.findAll(''), 'héllo'.findAll('.', 2)]])"
]
const HOSTILE_PROPS: Record<string, JSONSchemaProps> = { forty: { type: 'string', maxLength: 50 }, xs: { type: 'string', maxLength: 6000 } }

export const PROBE_SETS: readonly ProbeSet[] = [
  ...valueProbeCRDs([...VALUE_PROBES, ...MORE_VALUE_PROBES]).map(({ crd, probes }, n) => ({ key: `probe:values:${n}`, crd, spec: {}, probes, values: true })),
  { key: 'probe:typed-values', crd: probeCRD('TypedValueProbe', 'typedvalueprobes', TYPED_VALUE_PROBES, true, TYPED_PROPS), spec: TYPED_SPEC, probes: TYPED_VALUE_PROBES, values: true },
  { key: 'probe:edge-values', crd: probeCRD('EdgeValueProbe', 'edgevalueprobes', EDGE_VALUE_PROBES, true), spec: {}, probes: EDGE_VALUE_PROBES, values: true },
  { key: 'probe:hostile-values', crd: probeCRD('HostileValueProbe', 'hostilevalueprobes', HOSTILE_VALUE_PROBES, true, HOSTILE_PROPS), spec: { forty: 'a'.repeat(40) + '!', xs: 'x'.repeat(5000) }, probes: HOSTILE_VALUE_PROBES, values: true },
  { key: 'probe:errors', crd: probeCRD('ErrorProbe', 'errorprobes', ERROR_PROBES, false, ERROR_PROBE_PROPS), spec: ERROR_PROBE_SPEC, probes: ERROR_PROBES, values: false },
  ...chunks(MORE_ERROR_PROBES, 40).map((probes, n) => ({
    key: `probe:errors:${n + 2}`,
    crd: probeCRD(`ErrorProbe${n + 2}`, `errorprobe${n + 2}s`, probes, false, errorProps),
    spec: errorSpec,
    probes,
    values: false
  }))
]
