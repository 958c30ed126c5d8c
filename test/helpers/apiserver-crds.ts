// The test CRDs of the apiserver-schema proof (test/e2e/apiserver-schema.test.ts) and of the unit tests that replay
// its recorded answers (test/apiserver/recorded.test.ts): schemas that exercise defaulting, pruning, every OpenAPI
// keyword and format, CEL rules and their library functions, and the variable schemas of Cluster API's own classes.
import type { JSONSchemaProps } from '../../src/apiserver/index.js'

/** A test CRD: one version, namespaced, in group apiserver.test.runtime-sdk.io. */
export interface TestCRD {
  kind: string
  plural: string
  schema: JSONSchemaProps
  statusSubresource?: boolean
}

export const GROUP = 'apiserver.test.runtime-sdk.io'
export const VERSION = 'v1'

const str = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'string', ...extra })
const int = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'integer', ...extra })
const num = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'number', ...extra })
const obj = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties, ...extra })
const root = (spec: JSONSchemaProps, status?: JSONSchemaProps): JSONSchemaProps => obj({ spec, ...(status ? { status } : {}) })

/** Defaults at every depth, nulls, pruning, embedded resources, list and map types. */
export const WIDGET: TestCRD = {
  kind: 'Widget',
  plural: 'widgets',
  statusSubresource: true,
  schema: root(obj({
    replicas: int({ default: 1, minimum: 0, maximum: 100 }),
    mode: str({ enum: ['fast', 'slow'], default: 'slow' }),
    ratio: num({ default: 0.5 }),
    enabled: { type: 'boolean', default: true },
    tags: { type: 'array', items: str(), 'x-kubernetes-list-type': 'set', maxItems: 5 },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: obj({ name: str(), port: int({ default: 80 }), protocol: str({ default: 'TCP' }) }, { required: ['name'] })
    },
    endpoints: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['host', 'port'],
      items: obj({ host: str(), port: int({ default: 443 }), path: str({ default: '/' }) }, { required: ['host'] })
    },
    labels: { type: 'object', additionalProperties: str() },
    limits: { type: 'object', additionalProperties: obj({ cpu: str({ default: '1' }), memory: str() }) },
    nested: obj({ a: obj({ b: str({ default: 'x' }), c: obj({ d: int({ default: 7 }) }, { default: {} }) }, { default: {} }) }, { default: {} }),
    defaultedObject: obj({ p: str(), q: int({ default: 3 }) }, { default: { p: 'from-default' } }),
    nullable: str({ nullable: true }),
    nullableWithDefault: str({ nullable: true, default: 'n' }),
    nonNullableWithDefault: str({ default: 'd' }),
    nonNullable: str(),
    items: { type: 'array', items: obj({ name: str(), weight: int({ default: 10 }) }) },
    itemsWithNull: { type: 'array', items: str({ default: 'filled' }) },
    nullableItems: { type: 'array', items: str({ nullable: true }) },
    preserved: obj({ known: obj({ x: str({ default: 'kx' }) }) }, { 'x-kubernetes-preserve-unknown-fields': true }),
    anything: { 'x-kubernetes-preserve-unknown-fields': true },
    embedded: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true
    },
    embeddedTyped: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      properties: { spec: obj({ size: int({ default: 2 }) }) }
    },
    intOrString: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    intOrStringDefault: { 'x-kubernetes-int-or-string': true, default: '25%' },
    atomicMap: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: int() }
  }), obj({ phase: str({ default: 'Pending' }), observed: int() }))
}

const FORMATS = ['date', 'date-time', 'duration', 'byte', 'uuid', 'uuid3', 'uuid4', 'uuid5', 'email', 'hostname', 'ipv4', 'ipv6',
  'cidr', 'mac', 'uri', 'isbn', 'isbn10', 'isbn13', 'creditcard', 'ssn', 'hexcolor', 'rgbcolor', 'bsonobjectid', 'password',
  'k8s-short-name', 'k8s-long-name', 'datetime']

/** Every OpenAPI validation keyword, every format, combinators, required, enum, numbers with formats. */
export const CHECKER: TestCRD = {
  kind: 'Checker',
  plural: 'checkers',
  schema: root(obj({
    short: str({ minLength: 2, maxLength: 5 }),
    unicode: str({ maxLength: 3 }),
    patterned: str({ pattern: '^[a-z]+(-[a-z]+)*$' }),
    re2: str({ pattern: '\\A\\pL+\\z' }),
    formats: obj(Object.fromEntries(FORMATS.map(f => [f.replace(/-/g, '_'), str({ format: f })]))),
    unknownFormat: str({ format: 'not-a-format' }),
    intFormat: int({ format: 'int32' }),
    int64: int({ format: 'int64', maximum: 10, exclusiveMaximum: true, minimum: -10, exclusiveMinimum: true }),
    floatFormat: num({ format: 'float' }),
    double: num({ format: 'double', minimum: 0.5, maximum: 1e6 }),
    multiple: int({ multipleOf: 3 }),
    multipleFloat: num({ multipleOf: 0.25 }),
    bigMax: int({ maximum: 1.5 }),
    color: str({ enum: ['red', 'green', 'blue'] }),
    code: int({ enum: [1, 2, 3] }),
    mixedEnum: { 'x-kubernetes-int-or-string': true, enum: ['auto', 1, 'A'] },
    nullableEnum: str({ enum: ['a', 'b'], nullable: true }),
    list: { type: 'array', items: int({ minimum: 0 }), minItems: 1, maxItems: 3 },
    props: { type: 'object', additionalProperties: str(), minProperties: 1, maxProperties: 2 },
    req: obj({ a: str(), b: str(), c: str() }, { required: ['a', 'b'] }),
    allOf: str({ allOf: [{ minLength: 2 }, { maxLength: 5 }] }),
    anyOf: int({ anyOf: [{ minimum: 10 }, { maximum: -10 }] }),
    oneOf: obj({ a: str(), b: str() }, { oneOf: [{ required: ['a'] }, { required: ['b'] }] }),
    not: str({ not: { enum: ['forbidden'] } }),
    noExtra: { type: 'object', additionalProperties: false },
    intOrString: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: '^[0-9]+%$' },
    bool: { type: 'boolean' },
    deep: { type: 'array', items: { type: 'array', items: obj({ v: int({ maximum: 5 }) }) } }
  }, { required: ['short'] }))
}

/** CEL rules: messages, messageExpression, fieldPath, reason, transition rules, runtime errors. */
export const RULER: TestCRD = {
  kind: 'Ruler',
  plural: 'rulers',
  schema: root(obj({
    name: str({
      maxLength: 20,
      'x-kubernetes-validations': [
        { rule: 'self.startsWith(\'r-\')' },
        { rule: 'self.size() <= 10', message: 'name too long' },
        { rule: 'self.matches(\'^[a-z-]+$\')', messageExpression: '\'name must be lowercase, got \' + self' }
      ]
    }),
    replicas: int({
      maximum: 1000,
      'x-kubernetes-validations': [
        { rule: 'self >= 0', message: 'must not be negative', reason: 'FieldValueForbidden' },
        { rule: 'self % 2 == 1 || self == 0', messageExpression: '\'%d is even\'.format([self])' },
        { rule: 'self >= oldSelf', message: 'cannot scale down' }
      ]
    }),
    mode: str({
      maxLength: 10,
      'x-kubernetes-validations': [
        { rule: 'self == oldSelf', message: 'mode is immutable' },
        { rule: '!oldSelf.hasValue() || oldSelf.value() != \'locked\'', optionalOldSelf: true, message: 'mode was locked' }
      ]
    }),
    ratio: num({ 'x-kubernetes-validations': [{ rule: 'self < 1.0', messageExpression: '\'ratio %s too big\'.format([self])' }] }),
    window: obj({ start: int(), end: int() }, {
      'x-kubernetes-validations': [
        { rule: 'self.start < self.end', message: 'start must be before end', fieldPath: '.start' },
        { rule: 'has(self.start) == has(self.end)', message: 'start and end go together', reason: 'FieldValueRequired', fieldPath: '.end' }
      ]
    }),
    labels: {
      type: 'object',
      maxProperties: 10,
      additionalProperties: str({ maxLength: 63 }),
      'x-kubernetes-validations': [
        { rule: 'self.all(k, k.size() <= 20)', message: 'label keys too long' },
        { rule: '!(\'forbidden\' in self)', message: 'forbidden label', fieldPath: '[\'forbidden\']' },
        { rule: 'self.all(k, self[k] != \'\')', messageExpression: '\'%d empty values\'.format([self.filter(k, self[k] == \'\').size()])' }
      ]
    },
    tags: {
      type: 'array',
      maxItems: 10,
      'x-kubernetes-list-type': 'set',
      items: str({ maxLength: 20, 'x-kubernetes-validations': [{ rule: 'self != \'bad\'', reason: 'FieldValueDuplicate' }] }),
      'x-kubernetes-validations': [
        { rule: 'self.size() > 0', message: 'tags must not be empty', reason: 'FieldValueRequired' },
        { rule: 'oldSelf.all(t, t in self)', message: 'tags can only be added' }
      ]
    },
    ports: {
      type: 'array',
      maxItems: 10,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: obj({ name: str({ maxLength: 10 }), port: int() }, {
        required: ['name'],
        'x-kubernetes-validations': [
          { rule: 'self.port >= 1 && self.port <= 65535', messageExpression: '\'port \' + self.name + \' out of range\'' },
          { rule: 'self.port == oldSelf.port', message: 'port numbers are immutable' }
        ]
      }),
      'x-kubernetes-validations': [{ rule: 'self.exists_one(p, p.name == \'main\') || self.size() == 0', message: 'exactly one main port' }]
    },
    quantities: obj({ cpu: str({ maxLength: 20 }), memory: str({ maxLength: 20 }) }, {
      'x-kubernetes-validations': [
        { rule: '!has(self.cpu) || isQuantity(self.cpu)', message: 'cpu is not a quantity' },
        { rule: '!has(self.cpu) || !isQuantity(self.cpu) || quantity(self.cpu).isLessThan(quantity(\'4\'))', message: 'cpu must be below 4' },
        { rule: '!has(self.memory) || quantity(self.memory).compareTo(quantity(\'1Gi\')) <= 0', message: 'memory at most 1Gi' }
      ]
    }),
    network: obj({ ip: str({ maxLength: 50 }), cidr: str({ maxLength: 50 }), url: str({ maxLength: 200 }) }, {
      'x-kubernetes-validations': [
        { rule: '!has(self.ip) || isIP(self.ip)', message: 'ip is not an IP' },
        { rule: '!has(self.ip) || !has(self.cidr) || cidr(self.cidr).containsIP(self.ip)', messageExpression: '\'ip \' + self.ip + \' not in \' + self.cidr' },
        { rule: '!has(self.url) || url(self.url).getScheme() == \'https\'', message: 'url must be https' }
      ]
    }),
    version: str({ maxLength: 30, 'x-kubernetes-validations': [{ rule: 'isSemver(self, true) && semver(self, true).isGreaterThan(semver(\'1.0.0\'))', message: 'version must be a semver above 1.0.0' }] }),
    dns: str({ maxLength: 63, 'x-kubernetes-validations': [{ rule: '!format.dns1123Label().validate(self).hasValue()', messageExpression: 'format.dns1123Label().validate(self).value()[0]' }] }),
    divisor: int({ 'x-kubernetes-validations': [{ rule: '100 / self > 1' }, { rule: '100 % self == 0', message: 'must divide 100' }] }),
    lookup: obj({ key: str({ maxLength: 10 }), table: { type: 'object', maxProperties: 10, additionalProperties: int() } }, {
      'x-kubernetes-validations': [{ rule: 'self.table[self.key] > 0', message: 'looked-up value must be positive' }]
    }),
    index: obj({ at: int(), values: { type: 'array', maxItems: 10, items: int() } }, {
      'x-kubernetes-validations': [{ rule: 'self.values[self.at] != 0' }]
    }),
    big: int({ 'x-kubernetes-validations': [{ rule: 'self * self >= 0' }] }),
    dyn: {
      'x-kubernetes-int-or-string': true,
      'x-kubernetes-validations': [
        { rule: 'type(self) == int ? self > 0 : self.endsWith(\'%\')', message: 'a positive number or a percentage' },
        { rule: 'self + 1 > 1' }
      ]
    },
    times: obj({ at: str({ format: 'date-time' }), every: str({ format: 'duration' }), day: str({ format: 'date' }) }, {
      'x-kubernetes-validations': [
        { rule: '!has(self.at) || self.at.getFullYear() >= 2020', message: 'too old' },
        { rule: '!has(self.every) || self.every >= duration(\'1m\')', messageExpression: '\'every %s is under a minute\'.format([self.every])' },
        { rule: '!has(self.day) || self.day.getDayOfWeek() != 0', message: 'not on Sundays' }
      ]
    }),
    optional: obj({ a: obj({ b: str({ maxLength: 10 }) }) }, {
      'x-kubernetes-validations': [{ rule: 'self.?a.?b.orValue(\'x\') != \'forbidden\'', message: 'optional chain' }]
    }),
    twoVar: { type: 'object', maxProperties: 10, additionalProperties: int(), 'x-kubernetes-validations': [{ rule: 'self.all(k, v, v >= k.size())', message: 'values must be at least the key length' }] },
    strings: str({
      maxLength: 50,
      'x-kubernetes-validations': [
        { rule: 'self.lowerAscii() == self', message: 'lowercase only' },
        { rule: 'self.split(\',\').size() <= 3', messageExpression: '\'%d parts\'.format([self.split(\',\').size()])' },
        { rule: 'self.indexOf(\'x\') == -1 || self.substring(self.indexOf(\'x\')).size() > 1', message: 'x at the end' }
      ]
    }),
    lists: { type: 'array', maxItems: 10, items: int(), 'x-kubernetes-validations': [{ rule: 'self.isSorted()', message: 'sorted' }, { rule: 'self.size() == 0 || self.sum() < 100', messageExpression: '\'sum is %d\'.format([self.sum()])' }, { rule: 'self.size() == 0 || self.max() - self.min() < 50', message: 'spread too big' }] },
    badMessage: int({ 'x-kubernetes-validations': [{ rule: 'self < 10', messageExpression: '\'\'', message: 'fallback message' }, { rule: 'self < 20', messageExpression: 'string(1 / (self - self))' }] }),
    embedded: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-validations': [{ rule: 'self.kind == \'ConfigMap\'', messageExpression: '\'kind \' + self.kind + \' is not ConfigMap\'' }, { rule: 'self.metadata.name.startsWith(\'cm-\')', message: 'name must start with cm-' }]
    },
    escaped: obj({ 'dash-name': str({ maxLength: 10 }), namespace: str({ maxLength: 10 }), 'a.b': str({ maxLength: 10 }) }, {
      'x-kubernetes-validations': [{ rule: '!has(self.dash__dash__name) || self.dash__dash__name == self.__namespace__', message: 'dash-name must equal namespace' }, { rule: '!has(self.a__dot__b) || self.a__dot__b.size() > 1' }]
    })
  }, {
    'x-kubernetes-validations': [
      { rule: '!has(self.window) || !has(self.replicas) || self.replicas < 500', message: 'no big windows' }
    ]
  }), obj({ ready: { type: 'boolean' } })),
  statusSubresource: false
}
RULER.schema['x-kubernetes-validations'] = [{ rule: 'self.metadata.name.size() < 40', message: 'object name too long' }]

/** Variable schemas of Cluster API's quick-start ClusterClass and of its variable tests, as spec fields. */
export const VARIABLES: TestCRD = {
  kind: 'Variables',
  plural: 'variables',
  schema: root(obj({
    lbImageRepository: str({ default: 'kindest' }),
    etcdImageTag: str({ default: '', example: '3.5.3-0', description: 'etcdImageTag sets the tag for the etcd image.' }),
    coreDNSImageTag: str({ default: '', example: 'v1.8.5' }),
    kubeadmControlPlaneMaxSurge: str({
      default: '',
      example: '0',
      'x-kubernetes-validations': [{ rule: 'self == "" || self != ""', messageExpression: '\'just a test expression, got %s\'.format([self])' }]
    }),
    preLoadImages: { type: 'array', default: [], items: str() },
    controlPlaneTaint: { type: 'boolean', default: true },
    externalCloudProvider: { type: 'boolean', default: false },
    ipv6Primary: { type: 'boolean', default: false },
    kubeControlPlaneLogLevel: str({ example: '2' }),
    kubeletLogLevel: str({ example: '2' }),
    cpu: int({ 'x-kubernetes-validations': [{ rule: 'self >= 1', messageExpression: '\'new value must be greater than or equal to 1, but got %d\'.format([self])' }] }),
    memory: int({ 'x-kubernetes-validations': [{ rule: 'self >= 1', messageExpression: '\'\'', message: 'memory must be at least 1' }] }),
    immutable: obj({ field: str({ maxLength: 20 }) }, {
      'x-kubernetes-validations': [{ rule: 'self.field == oldSelf.field', messageExpression: '\'field is immutable, but field was changed from "%s" to "%s"\'.format([oldSelf.field,self.field])' }]
    }),
    growing: int({ 'x-kubernetes-validations': [{ rule: 'self > oldSelf', message: 'must grow' }] }),
    keyed: { type: 'object', maxProperties: 10, additionalProperties: int(), 'x-kubernetes-validations': [{ rule: 'self.all(value, self[value] >= 1)' }, { rule: '\'key1\' in self' }] },
    numbers: { type: 'array', maxItems: 10, items: int(), 'x-kubernetes-validations': [{ rule: 'self.all(value, value >= 1)' }, { rule: '[3] + self != [1,2,3]' }] },
    fields: obj({ field: int(), field2: int(), 'x-prop': str({ maxLength: 5 }), namespace: { type: 'boolean' }, redact__d: { type: 'boolean' } }, {
      'x-kubernetes-validations': [{ rule: '!has(self.field2)' }, { rule: '!has(self.field) || self.field <= 1' }, { rule: '!has(self.__namespace__) || self.__namespace__' }, { rule: '!has(self.x__dash__prop) || self.x__dash__prop != \'no\'' }]
    })
  }))
}

/**
 * Patterns and CEL regular expressions that backtrack exponentially in a backtracking engine (linear in RE2, as the
 * API server runs them); no seeded objects, hand-written ones only.
 */
export const HOSTILE: TestCRD = {
  kind: 'Hostile',
  plural: 'hostiles',
  schema: root(obj({
    name: str({ pattern: '^(a+)+$', maxLength: 100 }),
    xs: str({ pattern: '^(x+x+)+y$', maxLength: 6000 }),
    words: str({ maxLength: 200, 'x-kubernetes-validations': [{ rule: "!self.matches('^(\\\\w+\\\\s?)+$')", message: 'words must not be only words' }] }),
    finds: str({ maxLength: 6000, 'x-kubernetes-validations': [{ rule: "self.find('(x+x+)+y') == '' && size(self.findAll('(a|aa)+$')) == 0", message: 'found' }] })
  }))
}

/** All test CRDs. */
export const TEST_CRDS: readonly TestCRD[] = [WIDGET, CHECKER, RULER, VARIABLES, HOSTILE]

/** The CustomResourceDefinition object of a test CRD. */
export function crdObject (crd: TestCRD): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${crd.plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: crd.plural, singular: crd.kind.toLowerCase(), kind: crd.kind, listKind: `${crd.kind}List` },
      versions: [{
        name: VERSION,
        served: true,
        storage: true,
        schema: { openAPIV3Schema: crd.schema },
        ...(crd.statusSubresource ? { subresources: { status: {} } } : {})
      }]
    }
  }
}

/** A CRD whose spec carries one rule per expression: with values, `false` with the expression as messageExpression. */
export function probeCRD (kind: string, plural: string, expressions: readonly string[], values: boolean, properties: Record<string, JSONSchemaProps> = {}): TestCRD {
  const rules = expressions.map(e => values ? { rule: 'false', messageExpression: e } : { rule: e })
  return { kind, plural, schema: root(obj(properties, { 'x-kubernetes-validations': rules })) }
}

/** The value probe CRDs: the probes in chunks small enough for the API server's cost estimate of one schema. */
export function valueProbeCRDs (probes: readonly string[], size = 25): Array<{ crd: TestCRD, probes: string[] }> {
  const out: Array<{ crd: TestCRD, probes: string[] }> = []
  for (let i = 0; i < probes.length; i += size) {
    const chunk = probes.slice(i, i + size)
    const n = out.length
    out.push({ crd: probeCRD(`ValueProbe${n}`, `valueprobe${n}s`, chunk, true), probes: chunk })
  }
  return out
}
