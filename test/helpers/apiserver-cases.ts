// The objects of the apiserver-schema proof: hand-written ones for each test CRD (apiserver-crds.ts), objects
// generated from a seed, updates for the transition rules, and CEL expressions whose values or errors the API
// server reports through failing rules (the CEL probe CRD).
import type { JSONSchemaProps } from '../../src/apiserver/index.js'
import { CHECKER, GROUP, HOSTILE, RULER, type TestCRD, VARIABLES, VERSION, WIDGET } from './apiserver-crds.js'
import { mulberry32 } from '../../tools/harness/seeded-random.js'

/** One object to create (or, with from, an update from a stored object). */
export interface ObjectCase {
  name: string
  crd: TestCRD
  /** body is everything but apiVersion, kind and metadata.name/namespace. */
  body: Record<string, unknown>
  /** from is the object (same shape) created first, which body then updates. */
  from?: Record<string, unknown>
}

const c = (crd: TestCRD, name: string, body: Record<string, unknown>, from?: Record<string, unknown>): ObjectCase => ({ name, crd, body, ...(from ? { from } : {}) })

export const HAND_WRITTEN: ObjectCase[] = [
  // Defaulting and pruning.
  c(WIDGET, 'widget-empty', { spec: {} }),
  c(WIDGET, 'widget-no-spec', {}),
  c(WIDGET, 'widget-nested-defaults', { spec: { nested: { a: { c: {} } }, ports: [{ name: 'http' }, { name: 'https', port: 8443 }], endpoints: [{ host: 'a' }, { host: 'a', port: 80 }] } }),
  c(WIDGET, 'widget-map-defaults', { spec: { limits: { small: {}, big: { cpu: '4', memory: '1Gi' } }, labels: { a: 'b' } } }),
  c(WIDGET, 'widget-list-defaults', { spec: { items: [{ name: 'a' }, { name: 'b', weight: 1 }, {}] } }),
  c(WIDGET, 'widget-nulls', { spec: { nullable: null, nullableWithDefault: null, nonNullableWithDefault: null, nonNullable: null, replicas: null, itemsWithNull: ['a', null], nullableItems: ['a', null] } }),
  c(WIDGET, 'widget-null-in-map', { spec: { labels: { a: null, b: 'c' }, limits: { x: null } } }),
  c(WIDGET, 'widget-unknown-fields', { spec: { unknown: 1, nested: { a: { zzz: true, b: 'y' } }, ports: [{ name: 'p', extra: 'x' }], labels: { k: 'v' } }, extra: { top: true }, status: { phase: 'Running', nope: 1 } }),
  c(WIDGET, 'widget-preserved', { spec: { preserved: { anything: { deep: [1, 2, { x: 'y' }] }, known: { x: 'given', unknown: 'pruned' } }, anything: { a: [1, { b: null }], c: 'd' } } }),
  c(WIDGET, 'widget-embedded', { spec: { embedded: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { a: 'b' }, unknownMeta: 'dropped', creationTimestamp: null }, data: { k: 'v' } }, embeddedTyped: { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'thing' }, spec: {}, extra: 'pruned' } } }),
  c(WIDGET, 'widget-embedded-invalid', { spec: { embedded: { kind: 'bad_kind!', metadata: { name: 'a/b', labels: { 'bad key!': 'v', ok: 'bad value!' }, annotations: { 'BAD_ANNOTATION!': 'x' } } } } }),
  c(WIDGET, 'widget-embedded-missing', { spec: { embedded: { metadata: { name: 'x' } } } }),
  c(WIDGET, 'widget-int-or-string', { spec: { intOrString: 5, intOrStringDefault: 3 } }),
  c(WIDGET, 'widget-int-or-string-bad', { spec: { intOrString: 1.5, intOrStringDefault: true } }),
  c(WIDGET, 'widget-list-set-dup', { spec: { tags: ['a', 'b', 'a', 'a', 'b'] } }),
  c(WIDGET, 'widget-list-map-dup', { spec: { ports: [{ name: 'a' }, { name: 'a', port: 1 }], endpoints: [{ host: 'h' }, { host: 'h', port: 443 }] } }),
  c(WIDGET, 'widget-types-wrong', { spec: { replicas: 'three', mode: 'turbo', ratio: 'x', enabled: 'yes', tags: 'a', labels: ['x'], nested: 5 } }),
  c(WIDGET, 'widget-atomic-map', { spec: { atomicMap: { a: 1, b: 2 } } }),
  c(WIDGET, 'widget-status-dropped', { spec: { replicas: 3 }, status: { phase: 'Done', observed: 2 } }),
  c(WIDGET, 'widget-floats', { spec: { replicas: 2.5, ratio: 2 } }),
  c(WIDGET, 'widget-max', { spec: { replicas: 101, tags: ['1', '2', '3', '4', '5', '6'] } }),

  // OpenAPI validation.
  c(CHECKER, 'checker-minimal', { spec: { short: 'ab' } }),
  c(CHECKER, 'checker-missing-required', { spec: {} }),
  c(CHECKER, 'checker-strings', { spec: { short: 'a', unicode: 'äöüß', patterned: 'Bad_Name', re2: 'héllo' } }),
  c(CHECKER, 'checker-strings-ok', { spec: { short: 'abcde', unicode: 'äöü', patterned: 'good-name', re2: 'ÄÖÜ' } }),
  c(CHECKER, 'checker-strings-long', { spec: { short: 'abcdef', re2: 'abc1' } }),
  c(CHECKER, 'checker-formats-bad', {
    spec: {
      short: 'ok',
      formats: {
        date: '2021-02-30',
        date_time: '2021-01-01 10:00:00',
        duration: 'forever',
        byte: 'not base64!',
        uuid: 'x',
        uuid3: '00000000-0000-4000-8000-000000000000',
        uuid4: '00000000-0000-3000-8000-000000000000',
        uuid5: 'g',
        email: 'not an email',
        hostname: '-bad-',
        ipv4: '1.2.3',
        ipv6: '1.2.3.4',
        cidr: '10.0.0.0/33',
        mac: '00:11:22',
        uri: 'relative/path',
        isbn: '123',
        isbn10: '0306406153',
        isbn13: '9780306406158',
        creditcard: '1234',
        ssn: '123456789',
        hexcolor: '#12',
        rgbcolor: 'rgb(256,0,0)',
        bsonobjectid: 'xyz',
        password: '',
        k8s_short_name: 'Bad',
        k8s_long_name: 'bad..name',
        datetime: 'yesterday'
      },
      unknownFormat: 'anything'
    }
  }),
  c(CHECKER, 'checker-formats-good', {
    spec: {
      short: 'ok',
      formats: {
        date: '2024-02-29',
        date_time: '2021-01-01T10:00:00.5+02:00',
        duration: '1h30m',
        byte: 'aGVsbG8=',
        uuid: '123e4567-e89b-12d3-a456-426614174000',
        uuid3: '6fa459ea-ee8a-3ca4-894e-db77e160355e',
        uuid4: '16fd2706-8baf-433b-82eb-8c7fada847da',
        uuid5: '886313e1-3b8a-5372-9b90-0c9aee199e5d',
        email: 'Jane Doe <jane@example.com>',
        hostname: 'example.com',
        ipv4: '010.1.1.1',
        ipv6: '::1',
        cidr: '10.0.0.0/8',
        mac: '00:11:22:33:44:55',
        uri: 'https://example.com/a?b#c',
        isbn: '0306406152',
        isbn10: '0306406152',
        isbn13: '9780306406157',
        creditcard: '4111 1111 1111 1111',
        ssn: '123-45-6789',
        hexcolor: '#abc',
        rgbcolor: 'rgb(1, 2, 3)',
        bsonobjectid: '507f1f77bcf86cd799439011',
        password: 'secret',
        k8s_short_name: 'good-name',
        k8s_long_name: 'good.name',
        datetime: '2021-01-01T10:00:00Z'
      }
    }
  }),
  c(CHECKER, 'checker-formats-quirks', { spec: { short: 'ok', formats: { date_time: '2021-01-01t10:00:00zextra', duration: '3 days', email: '"quoted name"@example.com', hostname: 'ünïcode.example', ipv6: 'fe80::1%eth0', uri: '/absolute/path', mac: '0000.1111.2222' } } }),
  c(CHECKER, 'checker-numbers-bad', { spec: { short: 'ok', intFormat: 3000000000, int64: 10, floatFormat: 1e39, double: 0.25, multiple: 7, multipleFloat: 0.3, bigMax: 2 } }),
  c(CHECKER, 'checker-numbers-floats', { spec: { short: 'ok', intFormat: 1.5, int64: -10, double: 2e6, multiple: 1.5, bigMax: 1.7 } }),
  c(CHECKER, 'checker-numbers-ok', { spec: { short: 'ok', intFormat: 5, int64: 9, floatFormat: 1.5, double: 1000, multiple: 9, multipleFloat: 0.75, bigMax: 1 } }),
  c(CHECKER, 'checker-enums', { spec: { short: 'ok', color: 'purple', code: 4, mixedEnum: 'manual', nullableEnum: null } }),
  c(CHECKER, 'checker-enum-quirk', { spec: { short: 'ok', code: 2, mixedEnum: 65, color: 'red' } }),
  c(CHECKER, 'checker-collections', { spec: { short: 'ok', list: [], props: {}, req: { c: 'x' } } }),
  c(CHECKER, 'checker-collections-many', { spec: { short: 'ok', list: [1, -2, 3, 4], props: { a: 'x', b: 'y', c: 'z' } } }),
  c(CHECKER, 'checker-combinators', { spec: { short: 'ok', allOf: 'a', anyOf: 5, oneOf: { a: 'x', b: 'y' }, not: 'forbidden' } }),
  c(CHECKER, 'checker-combinators-none', { spec: { short: 'ok', allOf: 'toolongvalue', oneOf: {}, anyOf: 10 } }),
  c(CHECKER, 'checker-no-extra', { spec: { short: 'ok', noExtra: { a: 1, b: 2 } } }),
  c(CHECKER, 'checker-int-or-string', { spec: { short: 'ok', intOrString: 'abc' } }),
  c(CHECKER, 'checker-int-or-string-ok', { spec: { short: 'ok', intOrString: '50%' } }),
  c(CHECKER, 'checker-deep', { spec: { short: 'ok', deep: [[{ v: 1 }, { v: 6 }], [], [{ v: 9 }]] } }),
  c(CHECKER, 'checker-bool', { spec: { short: 'ok', bool: 'true' } }),

  // CEL rules.
  c(RULER, 'ruler-valid', { spec: { name: 'r-ok', replicas: 3, tags: ['a'], ports: [{ name: 'main', port: 80 }] } }),
  c(RULER, 'ruler-name', { spec: { name: 'bad_Name_that_is_long' } }),
  c(RULER, 'ruler-name-short', { spec: { name: 'r-BAD' } }),
  c(RULER, 'ruler-replicas', { spec: { replicas: -4 } }),
  c(RULER, 'ruler-window', { spec: { window: { start: 5, end: 3 } } }),
  c(RULER, 'ruler-window-half', { spec: { window: { start: 5 } } }),
  c(RULER, 'ruler-labels', { spec: { labels: { 'a-very-long-label-key-here': 'x', forbidden: 'y', empty: '' } } }),
  c(RULER, 'ruler-tags', { spec: { tags: [] } }),
  c(RULER, 'ruler-tag-bad', { spec: { tags: ['ok', 'bad'] } }),
  c(RULER, 'ruler-ports', { spec: { ports: [{ name: 'a', port: 0 }, { name: 'b', port: 70000 }] } }),
  c(RULER, 'ruler-quantities', { spec: { quantities: { cpu: '8', memory: '2Gi' } } }),
  c(RULER, 'ruler-quantities-bad', { spec: { quantities: { cpu: 'lots', memory: 'much' } } }),
  c(RULER, 'ruler-quantities-ok', { spec: { quantities: { cpu: '500m', memory: '512Mi' } } }),
  c(RULER, 'ruler-network', { spec: { network: { ip: '10.1.2.3', cidr: '192.168.0.0/16', url: 'http://example.com' } } }),
  c(RULER, 'ruler-network-bad', { spec: { network: { ip: 'not-an-ip', cidr: 'bad', url: 'relative' } } }),
  c(RULER, 'ruler-network-ok', { spec: { network: { ip: '192.168.1.1', cidr: '192.168.0.0/16', url: 'https://example.com:8443/x' } } }),
  c(RULER, 'ruler-version', { spec: { version: 'v0.9' } }),
  c(RULER, 'ruler-version-ok', { spec: { version: 'v1.2' } }),
  c(RULER, 'ruler-version-bad', { spec: { version: 'not.a.version' } }),
  c(RULER, 'ruler-dns', { spec: { dns: 'Not_A_Label' } }),
  c(RULER, 'ruler-divisor-zero', { spec: { divisor: 0 } }),
  c(RULER, 'ruler-divisor', { spec: { divisor: 30 } }),
  c(RULER, 'ruler-lookup-missing', { spec: { lookup: { key: 'x', table: { y: 1 } } } }),
  c(RULER, 'ruler-lookup', { spec: { lookup: { key: 'y', table: { y: -1 } } } }),
  c(RULER, 'ruler-index-out', { spec: { index: { at: 5, values: [1, 2] } } }),
  c(RULER, 'ruler-index-zero', { spec: { index: { at: 1, values: [1, 0] } } }),
  c(RULER, 'ruler-overflow', { spec: { big: 9007199254740991 } }),
  c(RULER, 'ruler-dyn-string', { spec: { dyn: 'abc' } }),
  c(RULER, 'ruler-dyn-int', { spec: { dyn: -3 } }),
  c(RULER, 'ruler-dyn-ok', { spec: { dyn: 5 } }),
  c(RULER, 'ruler-times', { spec: { times: { at: '2019-06-01T00:00:00Z', every: '30s', day: '2024-06-02' } } }),
  c(RULER, 'ruler-times-ok', { spec: { times: { at: '2021-06-01T00:00:00Z', every: '5m', day: '2024-06-03' } } }),
  c(RULER, 'ruler-optional', { spec: { optional: { a: { b: 'forbidden' } } } }),
  c(RULER, 'ruler-optional-missing', { spec: { optional: { a: {} } } }),
  c(RULER, 'ruler-two-var', { spec: { twoVar: { abc: 2, d: 5 } } }),
  c(RULER, 'ruler-strings', { spec: { strings: 'Upper,a,b,c,x' } }),
  c(RULER, 'ruler-lists', { spec: { lists: [5, 3, 90, 10] } }),
  c(RULER, 'ruler-bad-message', { spec: { badMessage: 25 } }),
  c(RULER, 'ruler-embedded', { spec: { embedded: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'secret' } } } }),
  c(RULER, 'ruler-escaped', { spec: { escaped: { 'dash-name': 'a', namespace: 'b', 'a.b': 'c' } } }),
  c(RULER, 'ruler-spec-rule', { spec: { window: { start: 1, end: 2 }, replicas: 501 } }),
  c(RULER, 'ruler-blocked', { spec: { name: 'r-blocked', replicas: 'many' } }),
  c(RULER, 'ruler-ratio', { spec: { ratio: 1.5 } }),

  // Updates (transition rules and ratcheting).
  c(RULER, 'ruler-scale-down', { spec: { replicas: 1 } }, { spec: { replicas: 5 } }),
  c(RULER, 'ruler-scale-up', { spec: { replicas: 7 } }, { spec: { replicas: 5 } }),
  c(RULER, 'ruler-mode-change', { spec: { mode: 'b' } }, { spec: { mode: 'a' } }),
  c(RULER, 'ruler-mode-locked', { spec: { mode: 'locked' } }, { spec: { mode: 'locked' } }),
  c(RULER, 'ruler-tags-removed', { spec: { tags: ['a'] } }, { spec: { tags: ['a', 'b'] } }),
  c(RULER, 'ruler-ports-changed', { spec: { ports: [{ name: 'main', port: 81 }, { name: 'new', port: 90 }] } }, { spec: { ports: [{ name: 'main', port: 80 }] } }),

  // Cluster API's variable schemas.
  c(VARIABLES, 'variables-defaults', { spec: {} }),
  c(VARIABLES, 'variables-values', { spec: { kubeadmControlPlaneMaxSurge: '1', preLoadImages: ['a', 'b'], cpu: 0, memory: 0 } }),
  c(VARIABLES, 'variables-keyed', { spec: { keyed: { key2: 0 }, numbers: [1, 2], fields: { field: 2, field2: 1, namespace: false, 'x-prop': 'no' } } }),
  c(VARIABLES, 'variables-immutable', { spec: { immutable: { field: 'b' }, growing: 1 } }, { spec: { immutable: { field: 'a' }, growing: 2 } }),
  c(VARIABLES, 'variables-wrong-types', { spec: { lbImageRepository: 5, controlPlaneTaint: 'yes', preLoadImages: 'x' } }),

  // Regular expressions that backtrack exponentially elsewhere: answered at once by RE2.
  c(HOSTILE, 'hostile-refused', { spec: { name: 'a'.repeat(40) + '!', xs: 'x'.repeat(5000), words: 'word '.repeat(30) + '!', finds: 'x'.repeat(5000) } }),
  c(HOSTILE, 'hostile-accepted', { spec: { name: 'a'.repeat(40), xs: 'x'.repeat(40) + 'y', words: 'word '.repeat(30) + '!?', finds: 'a'.repeat(40) + '!' } }),
  c(HOSTILE, 'hostile-rules', { spec: { words: 'word '.repeat(30), finds: 'x'.repeat(40) + 'y' + 'a'.repeat(40) } })
]

const WORDS = ['a', 'ab', 'abc', 'r-x', 'r-name', 'Hello', 'x y', '', 'é', 'main', 'bad', '50%', '1.2.3', '10.0.0.1', '1Gi', 'forbidden', 'locked', 'v1.2.3']

/**
 * A value for a schema: fitting its types, and (unless tidy) sometimes null, of the wrong type, or with unknown
 * fields.
 */
function generate (s: JSONSchemaProps, r: () => number, depth: number, tidy: boolean): unknown {
  const roll = r()
  if (!tidy && roll < 0.04) return null
  if (!tidy && roll < 0.08) return [1, 'x', true, {}, []][Math.floor(r() * 5)]
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T
  if (s.enum && r() < 0.7) return pick(s.enum)
  if (s['x-kubernetes-int-or-string']) return r() < 0.5 ? Math.floor(r() * 200) - 50 : pick(WORDS)
  switch (s.type) {
    case 'integer': return pick([0, 1, 2, 3, 5, 7, 13, 100, -1, 1000, 2147483648, 65535, 65536])
    case 'number': return pick([0, 0.25, 0.5, 1, 1.5, 2e6, -3.75])
    case 'boolean': return r() < 0.5
    case 'string': {
      if (s.format === 'date-time') return pick(['2021-01-01T00:00:00Z', '2019-12-31T23:59:59.5+01:00', 'nope'])
      if (s.format === 'duration') return pick(['1s', '2m', '1h30m', 'x'])
      if (s.format === 'date') return pick(['2024-06-02', '2024-06-03', '2021-02-29'])
      return pick(WORDS)
    }
    case 'array': {
      if (depth > 3 || !s.items || Array.isArray(s.items)) return []
      const n = Math.floor(r() * 4)
      return Array.from({ length: n }, () => generate(s.items as JSONSchemaProps, r, depth + 1, tidy))
    }
    case 'object': {
      if (depth > 3) return {}
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(s.properties ?? {})) if (r() < (tidy ? 0.25 : 0.45)) out[k] = generate(v, r, depth + 1, tidy)
      if (typeof s.additionalProperties === 'object') {
        const n = Math.floor(r() * 3)
        for (let i = 0; i < n; i++) out[pick(['k', 'key1', 'abc', 'forbidden', 'x'])] = generate(s.additionalProperties, r, depth + 1, tidy)
      }
      if (r() < 0.1) out.unknownField = pick(WORDS)
      return out
    }
  }
  return pick(WORDS)
}

/** Objects generated from a seed for each test CRD (their spec; status too for the Widget). */
export function generatedCases (seed: number, perCRD: number): ObjectCase[] {
  const r = mulberry32(seed)
  const out: ObjectCase[] = []
  for (const crd of [WIDGET, CHECKER, RULER, VARIABLES]) {
    const specSchema = crd.schema.properties?.spec as JSONSchemaProps
    for (let i = 0; i < perCRD; i++) {
      // Every other object keeps to the schema's types, so that more of them reach the CEL rules.
      const spec = generate(specSchema, r, 0, i % 2 === 0)
      const body: Record<string, unknown> = { spec: spec === null || typeof spec !== 'object' || Array.isArray(spec) ? {} : spec }
      if (crd === CHECKER && r() < 0.8) (body.spec as Record<string, unknown>).short = 'ok'
      out.push(c(crd, `gen-${crd.plural}-${seed}-${i}`, body))
    }
  }
  return out
}

/** The full object for a case (apiVersion, kind, metadata added). */
export function caseObject (k: ObjectCase, body: Record<string, unknown> = k.body): Record<string, unknown> {
  return { apiVersion: `${GROUP}/${VERSION}`, kind: k.crd.kind, metadata: { name: k.name, namespace: 'default' }, ...body }
}

/** CEL expressions whose string value the API server reports (as the messageExpression of a rule `false`). */
export const VALUE_PROBES: readonly string[] = [
  "'%.2f'.format([1234.5])", "'%e'.format([1234.5])", "'%f'.format([-0.5])", "'%d'.format([-42])", "'%.3e'.format([0.00012345])", "'%s|%s'.format([1.0, 1e21])",
  "'%s'.format([[1, 'a', 2.5, b'x', {'k': 1}, null, duration('1h'), timestamp('2020-01-01T00:00:00Z'), int, true]])",
  "'%x %X %o %b'.format([255, 'hi', 8, 5])", "'%s'.format([{'b': 1, 'a': [2.0, 'x']}])", "'%s'.format([[type(1), type('a'), type([]), type({}), type(null), type(1u), type(2.0)]])",
  "'%s'.format([[type(duration('1s')), type(timestamp('2020-01-01T00:00:00Z')), type(type(1)), type(b'')]])",
  'string(1000000.0)', 'string(0.000001)', 'string(-1.5e-7)', 'string(123456.75)', "string(duration('1h30m'))", "string(duration('-1.5s'))", "string(duration('1ns'))",
  "string(timestamp('2020-01-01T00:00:00.100Z'))", "string(timestamp('2020-01-01T10:00:00+02:00'))", "strings.quote('a\"b\\n')", "string(b'\\xc3\\xa9')",
  "'%s'.format([[int('-42'), uint(42), double('1e3'), int(3.99), int(-3.99), int(timestamp('2020-01-01T00:00:00Z'))]])",
  "'%s'.format([[5 / 2, -5 / 2, -5 % 3, 5.0 / 2.0, -9223372036854775807 - 1, dyn(1) + 2]])",
  "'%s'.format([['hello'.charAt(1), 'hello'.substring(1, 3), 'hello'.replace('l', 'L', 1), 'Hello'.upperAscii(), ' x '.trim(), 'ABC'.lowerAscii()]])",
  "'%s'.format([['hello'.indexOf('l'), 'hello'.lastIndexOf('l'), 'hello'.indexOf(''), 'héllo'.indexOf('l', 3), 'hello'.lastIndexOf('l', 2), 'hello'.lastIndexOf('')]])",
  "'%s'.format(['a,b,,c'.split(',')])", "'%s'.format(['a,b,c'.split(',', 2)])", "'%s'.format(['abc'.split('')])", "'%s'.format(['a,b'.split(',', 0)])",
  "'%s'.format([[3, 1, 2].sort()])", "'%s'.format([[1, 2, 2, 3, 1].distinct()])", "'%s'.format([[[1, [2]], [3]].flatten()])", "'%s'.format([[1, 2, 3, 4].slice(1, 3)])",
  "'%s'.format([lists.range(4)])", "'%s'.format([[1, 2, 3].reverse()])",
  "'%s'.format([[[1, 2, 3].sum(), [1.5, 2.5].sum(), [3, 1, 2].min(), [3, 1, 2].max()]])", "'%s'.format([[1, 2, 3, 2].indexOf(2)])", "'%s'.format([[[1, 2, 3, 2].lastIndexOf(2), [2, 1].isSorted()]])",
  "'%s'.format([[sets.contains([1, 2, 3], [2]), sets.equivalent([1, 2], [2, 1, 1]), sets.intersects([1], [2])]])",
  "'%s'.format([[[1, 2, 3].map(x, x * 2), [1, 2, 3].filter(x, x > 1), [1, 2, 3].map(x, x > 1, x * 10)]])",
  "'%s'.format([{'a': 1, 'b': 2}.transformMap(k, v, v * 2)])", "'%s'.format([[1, 2].transformList(i, v, i + v)])", "'%s'.format([{'a': 1}.transformMapEntry(k, v, {v: k})])",
  "'%s'.format([[[5, 6].exists(i, v, i == 1 && v == 6), [1, 2, 3].all(x, x > 0), [1, 2, 3].exists_one(x, x > 1), has({'a': 1}.a)]])",
  "'foo bar baz'.find('ba.')", "'%s'.format(['foo bar baz'.findAll('ba.')])", "'%s'.format(['aaa'.findAll('a*')])", "'%s'.format(['abc'.findAll('', 2)])", "'%s'.format(['baaab'.findAll('a*')])",
  "'%s'.format([[quantity('1.5Gi').asInteger(), quantity('100m').asApproximateFloat(), quantity('1k').compareTo(quantity('1000')), quantity('1Ki').add(24).asInteger()]])",
  "'%s'.format([[sign(quantity('1').sub(quantity('2'))), quantity('1.0000000001').isInteger(), isQuantity('1e3'), isQuantity('1.2.3'), isQuantity('k'), quantity('0.1Ki').asApproximateFloat()]])",
  "'%s'.format([[ip('10.0.0.1').family(), ip('::1').isLoopback(), ip('fe80::1').isLinkLocalUnicast(), ip('8.8.8.8').isGlobalUnicast(), ip('224.0.0.1').isLinkLocalMulticast(), ip('0.0.0.0').isUnspecified()]])",
  "string(ip('2001:db8:0:0:0:0:0:1'))", "string(ip('2001:db8:0:0:1:0:0:1'))", "'%s'.format([[ip.isCanonical('2001:db8::1'), ip.isCanonical('2001:DB8::1')]])",
  "string(cidr('10.0.0.1/8').masked())", "string(cidr('10.0.0.1/8').ip())", "'%s'.format([[cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16'), cidr('10.0.0.0/8').prefixLength(), cidr('::/0').containsIP('1.2.3.4')]])",
  "url('https://user@example.com:8080/a%20b?x=1&x=2&y=3#frag').getHost()", "url('https://[::1]:8080/').getHostname()", "url('https://[::1]:8080/').getPort()", "url('https://example.com/a%2Fb').getEscapedPath()",
  "'%s'.format([url('https://example.com/?x=1&x=2&y=').getQuery()])", "'%s'.format([[isURL('/relative'), isURL('relative'), url('https://e.com').getEscapedPath()]])",
  "'%s'.format([[semver('1.2.3-alpha.1+build').major(), semver('v01.2', true).minor(), semver('1.2.3-alpha').isLessThan(semver('1.2.3')), semver('1.2.3-alpha.10').compareTo(semver('1.2.3-alpha.9')), isSemver('1.2'), isSemver('1.2', true)]])",
  "'%s'.format([format.dns1123Label().validate('Bad_Label').value()])", "'%s'.format([[format.named('uuid').hasValue(), format.named('nope').hasValue(), format.labelValue().validate('ok').hasValue()]])",
  "'%s'.format([format.uri().validate('x').value()])", "'%s'.format([format.qualifiedName().validate('a/b/c').value()])", "'%s'.format([format.dns1123SubdomainPrefix().validate('a-').orValue(['none'])])",
  "'%s'.format([[optional.of(1).orValue(2), optional.none().orValue(3), optional.ofNonZeroValue('').hasValue(), {'a': 1}[?'b'].or(optional.of(5)).value()]])",
  "'%s'.format([[[1, 2][?5].hasValue(), dyn([?optional.of(1), ?optional.none()]), dyn({?'a': optional.none(), 'b': 2}), optional.of(3).optMap(x, x * 2).value(), [].first().hasValue(), [4, 5].last().value(), {'a': {'b': 1}}.?a.?b.value()]])",
  "'%s'.format([[timestamp('2024-03-10T10:00:00Z').getHours('America/Los_Angeles'), timestamp('2024-03-10T10:00:00Z').getDayOfWeek(), timestamp('2024-03-10T10:00:00Z').getMonth('+05:30'), timestamp('2024-12-31T23:00:00Z').getDayOfYear('Asia/Tokyo')]])",
  "'%s'.format([[duration('3h25m').getMinutes(), timestamp('2020-01-01T00:00:00Z') - timestamp('2019-12-31T00:00:00Z'), timestamp('2020-02-29T12:00:00Z').getDate(), timestamp('2020-02-29T12:00:00Z').getDayOfMonth(), timestamp('2021-01-01T00:00:00Z').getFullYear('-01:00')]])",
  "'%s'.format([[dyn(1) == 1.0, dyn(1u) == 1, dyn([1]) == [1.0], dyn({'a': 1}) == {'a': 1.0}, 1 < 1.5, 2u > 1, 'a' < 'b', b'a' < b'b', false < true, dyn('1') == 1]])",
  "'%s'.format([[bool('TRUE'), bool('f'), bytes('é'), size('héllo'), size(b'h\\xc3\\xa9'), double(5) / 2.0]])",
  "'%s'.format([['abc'.matches('^a.c$'), matches('abc', 'b'), 'abc'.contains('bc'), 'abc'.startsWith('a'), 'abc'.endsWith('c')]])"
]

/** More CEL values, by area (arithmetic, conversions, strings, lists, maps, optionals, time, libraries, regex). */
export const MORE_VALUE_PROBES: readonly string[] = [
  "'%s'.format([[7 / 2, -7 / 2, -7 % 2, 7 % -2, 5u / 2u, 5u % 3u, 5u - 3u]])", "'%s'.format([[2.0 * 3.5, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 1e300 * 1e10]])",
  "'%s'.format([[int(-0.5), uint(3.7), double(9007199254740993), double('inf'), double('-Infinity'), double('NaN'), double('1e-3')]])",
  'string(1e21)', 'string(123456789.0)', 'string(0.0001)', 'string(0.00001)', 'string(-0.0)', 'string(9007199254740993.0)',
  "'%s'.format([[string(true), string(b'abc'), bytes('abc'), string(int(duration('1s'))), string(timestamp(1700000000)), string(uint('18446744073709551615'))]])",
  "string(timestamp('2020-01-01T00:00:00Z') + duration('-1h'))", "string(duration('1h') - duration('90m'))", "string(duration('1.5h'))", "string(duration('-0.5s'))", "string(duration('2562047h47m16.854775807s'))",
  "string(timestamp('2020-03-01T00:00:00+05:30') - duration('24h'))", "string(timestamp('0001-01-01T00:00:00Z'))", "string(timestamp('2020-01-01T00:00:00.000000001Z'))",
  "'%s'.format([['héllo'.size(), size(b'\\xff'), 'abc'.charAt(3), 'abc'.substring(3), 'xax'.lastIndexOf('x', 1), 'x'.indexOf('x', 1), 'aaa'.indexOf('aa', 1)]])",
  "'%s'.format([['a-b-c'.replace('-', ''), 'abc'.replace('', '_'), 'abc'.replace('b', 'B', 0), 'ß'.upperAscii(), 'ÀB'.lowerAscii()]])",
  "'%s'.format([[' \\t x \\n'.trim(), '\\u00a0x\\u00a0'.trim(), '\\ufeffx'.trim(), 'a,b'.split(',', -1), 'a,b'.split(',', 1), ''.split(','), 'a'.split('a')]])",
  "strings.quote('é\\t\\x01')", "'100%%'.format([])", "'%s %d %s'.format([null, 7u, true])", "'%x|%X|%o|%b'.format([b'\\x01\\xff', -255, -8, true])",
  "'%.1f|%.0f|%.0f|%.2f|%.3f'.format([2.25, 0.5, 1.5, 1.005, -0.0005])", "'%e|%e|%f'.format([0.0, -1234.5, 1e21])", "'%.0f|%f'.format([123456789.0, 0.000001])",
  "'%s'.format([[[1, 2] + [3], [1, [2, [3]]].flatten(2), [].flatten(), [3, 1, 2].sort(), ['b', 'a'].sort(), [true, false].sort(), [1.5, -1.0].sort()]])",
  "'%s'.format([[[1, 2, 3].slice(0, 0), lists.range(0), [1, 2, 1].distinct(), ['a', 'b', 'a'].distinct(), [1, 2, 3].reverse(), [[1], [1]].distinct()]])",
  "'%s'.format([[{'a': 1}.size(), 'a' in {'a': 1}, 2 in [1, 2], 3 in [1, 2], [1, 2, 3].filter(x, x % 2 == 1).map(x, x * 10), [1, 2, 3].exists_one(x, x > 5)]])",
  "'%s'.format([[['a', 'b'].all(x, x.size() == 1), sets.contains([], []), sets.equivalent([], [1]), sets.intersects([1, 2], [2, 3]), [2.5, 1.5].max(), [duration('1s'), duration('2s')].sum()]])",
  "'%s'.format([[[1, 1].isSorted(), [].isSorted(), [1.5].sum()]])", "string([timestamp('2020-01-01T00:00:00Z'), timestamp('2019-01-01T00:00:00Z')].min())",
  "'%s'.format([[optional.of(1).hasValue(), optional.none().hasValue(), optional.of(1).value(), {'a': 1}.?a.orValue(0), {'a': 1}.?b.orValue(0), [1][?0].value()]])",
  "'%s'.format([[optional.ofNonZeroValue(0).hasValue(), optional.ofNonZeroValue([1]).hasValue(), optional.none().or(optional.of(2)).value(), optional.of(1).optFlatMap(x, optional.none()).hasValue()]])",
  "'%s'.format([[optional.unwrap([optional.of(1), optional.none()]), [optional.of(2)].unwrapOpt(), optional.of(null).hasValue(), optional.ofNonZeroValue(null).hasValue()]])",
  "'%s'.format([[[10, 20].all(i, v, v == (i + 1) * 10), {'a': 1, 'b': 2}.exists(k, v, k == 'b' && v == 2), [1, 2, 3].existsOne(i, v, v > 2), [1, 2, 3].transformList(i, v, i < 2, v * v)]])",
  "'%s'.format([{'a': 1, 'b': 2}.transformMap(k, v, v > 1, v)])", "'%s'.format([[1, 2].transformMapEntry(i, v, {string(i): v})])",
  "'%s'.format([[timestamp('2024-02-29T12:34:56.789Z').getMilliseconds(), timestamp('2024-02-29T12:34:56.789Z').getSeconds(), timestamp('2024-02-29T12:34:56.789Z').getMinutes(), timestamp('2024-02-29T12:34:56.789Z').getFullYear()]])",
  "'%s'.format([[timestamp('2024-02-29T12:34:56Z').getMonth(), timestamp('2024-02-29T12:34:56Z').getDayOfYear(), timestamp('2024-02-29T12:34:56Z').getDate(), timestamp('2024-02-29T12:34:56Z').getDayOfMonth(), timestamp('2024-02-29T12:34:56Z').getDayOfWeek()]])",
  "'%s'.format([[timestamp('2024-06-30T23:30:00Z').getHours('Europe/Berlin'), timestamp('2024-06-30T23:30:00Z').getDate('Europe/Berlin'), timestamp('2024-06-30T23:30:00Z').getHours('UTC'), timestamp('2024-06-30T23:30:00Z').getHours('-08:00'), timestamp('2024-06-30T23:30:00Z').getMinutes('+00:30')]])",
  "'%s'.format([[timestamp('2024-01-01T02:00:00+02:00').getHours(), duration('25h').getHours(), duration('90s').getMinutes(), duration('1.5s').getMilliseconds(), duration('-90m').getHours(), duration('2h').getSeconds()]])",
  "'%s'.format([[quantity('1.0').isInteger(), quantity('1000m').isInteger(), quantity('1k').isInteger(), quantity('1Gi').asInteger(), quantity('1e3').asInteger(), quantity('1.5').add(quantity('0.5')).isInteger()]])",
  "'%s'.format([[quantity('1Mi').sub(quantity('1Ki')).asInteger(), sign(quantity('-1')), quantity('100Gi').compareTo(quantity('100G')), sign(quantity('-0')), quantity('1.5Ki').asApproximateFloat(), quantity('1n').asApproximateFloat()]])",
  "'%s'.format([[quantity('123456789012345678901').asApproximateFloat(), quantity('0.1n').asApproximateFloat(), isQuantity('1.5Ki'), isQuantity('Ki'), isQuantity('1e'), isQuantity('+'), isQuantity('.5'), isQuantity('1.2.3')]])",
  "'%s'.format([[quantity('1').add(quantity('1m')).isInteger(), quantity('1E3').add(quantity('1')).asInteger(), quantity('9223372036854775807').add(1).isInteger(), quantity('1Ei').isInteger(), quantity('100Ei').asApproximateFloat()]])",
  "string(ip('::'))", "string(ip('1:0:0:1:0:0:0:1'))", "string(ip('0:0:1::'))", "string(ip('2001:DB8::A'))",
  "'%s'.format([[ip('127.0.0.1').isLoopback(), ip('ff02::1').isLinkLocalMulticast(), ip('255.255.255.255').isGlobalUnicast(), ip('10.0.0.1').isGlobalUnicast(), ip('::').isUnspecified(), ip('fe80::1').family()]])",
  "'%s'.format([[cidr('192.168.0.0/24').containsIP(ip('192.168.0.255')), cidr('192.168.0.0/24').containsIP('192.168.1.0'), cidr('::/0').containsCIDR(cidr('::1/128')), cidr('10.0.0.0/8').containsCIDR('10.0.0.0/7'), cidr('1.2.3.4/32').ip().family()]])",
  "string(cidr('2001:db8::1/32').masked())", "string(cidr('10.1.2.3/20').masked())", "'%s'.format([[isCIDR('1.2.3.4/0'), isCIDR('1.2.3.4/08'), isCIDR('1.2.3.4/33'), isIP('1.2.3.4'), isIP('1.2.3'), ip('1.2.3.4') == ip('1.2.3.4'), cidr('1.2.3.4/24') == cidr('1.2.3.0/24')]])",
  "url('https://a.b/c?d=e#f').getScheme()", "url('https://a.b:99/c?d=e#f').getPort()", "url('/path').getHost()", "url('http://[fe80::1%25en0]:8080/').getHostname()", "url('https://x.com/%7Euser/a b').getEscapedPath()",
  "'%s'.format([[isURL('mailto:x@y.com'), isURL('http://a b'), isURL('http://a/b c'), isURL(''), isURL('*'), isURL('http://x.com:port'), url('HTTPS://X.com').getScheme()]])", "'%s'.format([url('https://x.com/?a=1&b&a=3&c=%zz').getQuery()])",
  "'%s'.format([[semver('1.2.3').isGreaterThan(semver('1.2.3-rc.1')), semver('1.2.3-alpha').compareTo(semver('1.2.3-beta')), semver('1.2.3-1').compareTo(semver('1.2.3-a')), semver('v1', true).major(), isSemver('1.2.3+meta'), isSemver('01.2.3'), isSemver('v1.2.3', true), semver('1.2.3+b1') == semver('1.2.3+b2')]])",
  "'%s'.format([[semver('1.2.3-a.b').compareTo(semver('1.2.3-a')), semver('0.0.0').patch(), isSemver('1.2.3-'), isSemver('1.2.3-01'), isSemver('1.2', true), isSemver('v1.2.3-rc1', true)]])",
  "'%s'.format([format.dns1123Subdomain().validate('A.b').value()])", "'%s'.format([format.dns1035Label().validate('1a').value()])", "'%s'.format([[format.dns1123LabelPrefix().validate('abc-').hasValue(), format.byte().validate('YQ==').hasValue()]])",
  "'%s'.format([format.uuid().validate('x').value()])", "'%s'.format([format.date().validate('2020-13-01').value()])", "'%s'.format([format.datetime().validate('x').value()])", "'%s'.format([format.named('labelValue').value().validate('x y').value()])",
  "'%s'.format([[dyn(1) == dyn(1u), dyn([1, 2]) == dyn([1, 2.0]), dyn({'a': [1]}) == dyn({'a': [1.0]}), dyn(null) == dyn(null), dyn(b'a') == dyn('a'), dyn(duration('1s')) == dyn(duration('1000ms')), dyn(type(1)) == dyn(int)]])",
  "'%s'.format([[type(dyn(1u)) == uint, type(dyn(1.0)) == double, type(optional.none()) == optional_type, dyn(2.0) > dyn(1), dyn(1u) < dyn(2.5), dyn(-1) < dyn(0u), dyn(1) == dyn(1.5)]])",
  "'%s'.format([['abc'.matches('(?i)ABC'), 'a\\nb'.matches('a.b'), 'a\\nb'.matches('(?s)a.b'), 'x'.matches('\\\\pL'), 'é'.matches('^.$'), 'ab'.matches('^a\\\\z'), 'a.b'.matches('a\\\\.b')]])",
  "'%s'.format([['abc123'.find('[0-9]+'), 'a1b22c333'.findAll('[0-9]+', 2), 'aaa'.findAll('a', 0), 'ab'.findAll('(?i)A|B'), 'xyz'.findAll('q'), 'aXbX'.findAll('(?i)x')]])",
  "'%s'.format([['a1b2'.findAll('[[:digit:]]'), 'a b'.find('\\\\s'), 'one two'.findAll('\\\\w+'), 'ñandú'.findAll('\\\\pL+'), 'abab'.find('(a)(b)')]])"
]

/** The spec of the object the error probes run on (they refer to it, so that they are not folded at compile time). */
export const ERROR_PROBE_SPEC: Record<string, unknown> = {
  s: 'x',
  zero: 0,
  one: 1,
  big: 9007199254740991,
  f: 1.5,
  l: [1, 2],
  m: { a: 1 },
  paren: '(',
  bracket: '[',
  dur: '1x',
  ts: 'bad',
  q: '1.2.3',
  mapped: '::ffff:1.2.3.4',
  octet: '1.2.3.04',
  zoned: 'fe80::1%eth0',
  noPrefix: '1.2.3.4',
  longPrefix: '1.2.3.4/40',
  rel: 'foo',
  short: '1.0',
  lead: '1.02.3',
  tz: 'Mars/Olympus',
  pct: '%d',
  q2: '%q',
  two: '%s %s',
  mixed: [1, 'a'],
  frac: '1.5',
  oneSecond: '1s'
}

/** The schema of that spec. */
export const ERROR_PROBE_PROPS: Record<string, JSONSchemaProps> = {
  ...Object.fromEntries(Object.entries(ERROR_PROBE_SPEC).map(([k, v]) => [k, typeof v === 'string' ? { type: 'string', maxLength: 20 } : { type: 'integer' }])),
  f: { type: 'number' },
  l: { type: 'array', items: { type: 'integer' }, maxItems: 5 },
  m: { type: 'object', additionalProperties: { type: 'integer' }, maxProperties: 5 },
  mixed: { type: 'array', items: { 'x-kubernetes-int-or-string': true }, maxItems: 5 }
}

/** CEL rules whose runtime error the API server reports (the rule itself fails). */
export const ERROR_PROBES: readonly string[] = [
  'self.one / self.zero == 0', 'self.one % self.zero == 0', "self.m['b'] == 1", 'self.l[5] == 1', '[1, 2][self.l[1] + 3] == 1', 'int(self.s) == 1', 'self.big * self.big > 0', '-self.big * self.big < 0',
  'int(self.f * 1e19) == 0', 'uint(-self.one) == 0u', 'duration(self.dur) > duration(\'1s\')', 'timestamp(self.ts) > timestamp(\'2020-01-01T00:00:00Z\')',
  'dyn(self.s) + 1 == 2', 'dyn(self.one) + \'a\' == \'\'', 'dyn(self.l).size() == dyn(self.s)', 'quantity(self.q).isInteger()', 'quantity(self.frac).asInteger() == 1',
  'ip(self.mapped).family() == 4', 'ip(self.octet).family() == 4', 'ip(self.zoned).family() == 6', 'cidr(self.noPrefix).prefixLength() == 1', 'cidr(self.longPrefix).prefixLength() == 1',
  'url(self.rel).getScheme() == \'\'', 'semver(self.short).major() == 1', 'semver(self.lead).major() == 1', 'self.s.charAt(10) == \'\'', 'self.s.substring(1, 0) == \'\'', 'self.s.substring(-1) == \'\'',
  'self.l.slice(0, 5) == []', 'self.l.filter(x, x > 5).min() == 1', 'optional.none().value() == self.one',
  'timestamp(\'2020-01-01T00:00:00Z\').getHours(self.tz) == 1', 'timestamp(\'9999-12-31T23:59:59Z\') + duration(self.oneSecond) > timestamp(\'2020-01-01T00:00:00Z\')',
  'self.s.matches(self.paren)', 'self.s.find(self.bracket) == \'\'', 'self.pct.format([self.s]) == \'\'', 'self.q2.format([self.one]) == \'\'', 'self.two.format([self.one]) == \'\'',
  'dyn(self.m).b == 1', 'dyn(self.one) in dyn(self.one)', 'dyn(self.s) < dyn(self.one)', 'dyn(self.f) / dyn(self.zero) == 1.0', '[1, 2][dyn(self.f)] == 1', 'dyn(self.one) ? true : false',
  'self.mixed.all(x, x > 0)', 'self.mixed[1] + 1 == 2', 'self.l.all(x, x / self.zero > 0)', 'self.l.exists(x, x == 2 || x / self.zero > 0)', 'self.m.all(k, self.m[k] / self.zero > 0)'
]
