// OpenAPI validation, pruning, defaulting, list types, formats and embedded resources: the behaviours (and Go
// quirks) the recorded API server answers do not all reach. Messages are the API server's.
import t from 'tap'
import {
  applyDefaults, compileSchema, createCustomResource, fieldErrorString, type JSONSchemaProps, prune, updateCustomResource, validate
} from '../../src/apiserver/index.js'
import { checkFormat, effectiveFormat, parseStrfmtDuration } from '../../src/apiserver/formats.js'
import { coerceEmbedded, roundTripObjectMeta, validateEmbedded } from '../../src/apiserver/objectmeta.js'
import { validateListTypes } from '../../src/apiserver/listtype.js'
import { toStructural } from '../../src/apiserver/schema.js'

const msgs = (schema: JSONSchemaProps, value: unknown, path?: string) => validate(schema, value, path).map(fieldErrorString)

t.test('formats', async t => {
  t.equal(effectiveFormat('integer', 'int32'), 'int32')
  t.equal(effectiveFormat('integer', 'date'), '')
  t.equal(effectiveFormat('number', 'double'), 'double')
  t.equal(effectiveFormat('number', 'int32'), '')
  t.equal(effectiveFormat('boolean', 'date'), '')
  t.equal(effectiveFormat('string', 'date-time'), 'date-time')
  t.equal(effectiveFormat('', 'date'), 'date')
  t.equal(effectiveFormat('string', undefined), '')
  t.equal(effectiveFormat('string', 'nope'), '')
  t.ok(checkFormat('nope', 'anything'))
  const valid: Array<[string, string]> = [['isbn10', '080442957X'], ['isbn13', '978-0-306-40615-7'], ['creditcard', '4111-1111-1111-1111'], ['duration', '3 days'],
    ['duration', '10 mins'], ['duration', 'xyz 5s'], ['datetime', '2021-01-01t10:00:00z'], ['date-time', '2021-01-01T10:00:00.123-01:00'], ['hostname', 'a'], ['ipv4', '1.2.3.4'],
    ['byte', 'YWJj'], ['bsonobjectid', '0123456789abcdef01234567'], ['k8s-long-name', 'a.b-c'], ['uuid', '123E4567E89B12D3A456426614174000']]
  for (const [f, s] of valid) t.ok(checkFormat(f, s), `${f} ${s}`)
  const invalid: Array<[string, string]> = [['isbn10', '0804429579'], ['isbn13', '9780306406158'], ['creditcard', '4111 1111 1111 1112'], ['duration', 'nothing'],
    ['datetime', '2021'], ['datetime', '2021-01-01T25:00:00Z'], ['datetime', '2021-01-01T10:00:00'], ['hostname', 'a'.repeat(64) + '.com'], ['hostname', 'x'.repeat(256)],
    ['ipv4', '::1'], ['ipv6', '1.2.3.4'], ['ipv6', 'zz'], ['k8s-short-name', 'a'.repeat(64)], ['ssn', '123-45-678'], ['uri', 'x y']]
  for (const [f, s] of invalid) t.notOk(checkFormat(f, s), `${f} ${s}`)
  t.equal(parseStrfmtDuration('1h'), 3_600_000_000_000n)
  t.equal(parseStrfmtDuration('2 weeks 1 day'), 15n * 86_400_000_000_000n)
  t.equal(parseStrfmtDuration('99999999999999999999 s'), undefined, 'Atoi overflows')
})

t.test('value validation messages', async t => {
  t.same(msgs({ type: 'array', items: { type: 'integer' }, uniqueItems: true }, [1, 2, 1]), ['<nil>: Invalid value: "":  in body shouldn\'t contain duplicates'])
  t.same(msgs({ type: 'object', additionalProperties: false }, { a: 1 }), ['<nil>: Invalid value: "a": .a in body is a forbidden property'])
  t.same(msgs({ type: 'string', pattern: '(' }, 'x'), ['<nil>: Invalid value: "x":  in body should match \'(, but pattern is invalid: error parsing regexp: missing closing ): `(`\''])
  t.same(msgs({ type: 'string', enum: ['a', 'b'], nullable: true }, null), ['<nil>: Unsupported value: null: supported values: "a", "b"'])
  t.same(msgs({ type: 'string', minLength: 2 }, 'a', 'value'), ['value: Invalid value: "a":  in body should be at least 2 chars long'])
  t.same(msgs({ type: 'object', minProperties: 1, properties: { a: { type: 'string' } } }, {}, 'value'), ['value: Invalid value: 0:  in body should have at least 1 properties'])
  t.same(msgs({ type: 'object', maxProperties: 0 }, { a: 1 }), ['<nil>: Too many: 1: must have at most 0 items'])
  t.same(msgs({ type: 'number', format: 'float' }, 1e39), ['<nil>: Invalid value: "": Checked value must be of type number with format float in '])
  t.same(msgs({ type: 'integer', multipleOf: 0.5 }, 3), ['<nil>: Invalid value: "": MultipleOf value must be of type integer (default format) in '], 'then 3 is checked as a float64 multiple of 0.5')
  t.same(msgs({ type: 'integer', multipleOf: 0.4 }, 3), ['<nil>: Invalid value: "": MultipleOf value must be of type integer (default format) in ', '<nil>: Invalid value: 3:  in body should be a multiple of 0.4'])
  t.same(msgs({ multipleOf: 0.5 }, 3), ['<nil>: Invalid value: 0: factor MultipleOf declared for  must be positive: 0'])
  t.same(msgs({ multipleOf: -2 }, 3.5), ['<nil>: Invalid value: -2: factor MultipleOf declared for  must be positive: -2'])
  t.same(msgs({ type: 'number', minimum: 1, exclusiveMinimum: true, maximum: 2, exclusiveMaximum: true }, 1), ['<nil>: Invalid value: 1:  in body should be greater than 1'])
  t.same(msgs({ type: 'number', maximum: 2, exclusiveMaximum: true }, 2.0), ['<nil>: Invalid value: 2:  in body should be less than 2'])
  t.same(msgs({ type: 'integer', minimum: 1.5 }, 1), ['<nil>: Invalid value: "": Minimum boundary value must be of type integer (default format) in ', '<nil>: Invalid value: 1:  in body should be greater than or equal to 1.5'])
  t.same(msgs({ enum: [1, 2] }, 1.5), [], 'Go converts the float to the enum\'s int64: 1.5 matches 1')
  t.same(msgs({ type: 'string', enum: ['A'] }, 65), ['<nil>: Invalid value: "integer":  in body must be of type string: "integer"'], 'an int converts to its code point, but the type check fails first')
  t.same(msgs({ enum: [{ a: 1 }, [1]] }, { a: 1 }), [])
  t.same(msgs({ enum: [{ a: 1 }, [1], true, 1.5] }, [2]), ['<nil>: Unsupported value: [2]: supported values: "{\\"a\\":1}", "[1]", "true", "1.5"'])
  t.same(msgs({ enum: [null, 'x'] }, 'y'), ['<nil>: Unsupported value: "y": supported values: "null", "x"'])
  t.same(msgs({ type: 'string', not: { enum: ['x'] } }, 'x'), ['<nil>: Invalid value: "": "" must not validate the schema (not)'])
  t.same(msgs({ oneOf: [{ minLength: 1 }, { maxLength: 5 }] }, 'abc'), ['<nil>: Invalid value: "": "" must validate one and only one schema (oneOf). Found 2 valid alternatives'])
  t.same(msgs({ allOf: [{ minLength: 1 }, { maxLength: 2 }] }, 'abc'), ['<nil>: Too long: may not be more than 2 bytes', '<nil>: Invalid value: "": "" must validate all the schemas (allOf)'])
  t.same(msgs({ type: 'integer', format: 'int32' }, true), ['<nil>: Invalid value: "":  in body must be of type int32: ""'])
  t.same(msgs({ type: 'string', format: 'byte' }, [1]), [], 'kube-openapi skips the type check of a formatted string for a list')
  t.same(msgs({ type: 'integer' }, 2.0), [])
  t.same(msgs({ type: 'number' }, 2), [])
  t.same(msgs({ type: 'string' }, null), ['<nil>: Invalid value: "null":  in body must be of type string: "null"'])
  t.same(msgs({ type: 'object', properties: { a: { type: 'array', items: { type: 'string', maxLength: 1 } } } }, { a: ['ab'] }, 'value'), ['value.a[0]: Too long: may not be more than 1 byte'])
  t.same(msgs({ type: 'array', items: { type: 'string', maxLength: 1 } }, ['ab'], 'value'), ['value.[0]: Too long: may not be more than 1 byte'], 'Go names a root item value.[0]')
  t.same(msgs({ type: 'object', additionalProperties: { type: 'integer' } }, { 'k.x': 'a' }, 'value'), ['value.k.x: Invalid value: "string": .k.x in body must be of type integer: "string"'])
})

t.test('pruning', async t => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { inner: { type: 'object', properties: { x: { type: 'string' } } } } },
      listOfFree: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { y: { type: 'object' } } } },
      map: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string' } } } },
      untyped: { type: 'array' }
    }
  }
  const value = { list: [{ a: 'x', b: 1 }], free: { any: [{ deep: 1 }], inner: { x: 'y', z: 1 } }, listOfFree: [{ keep: 1, y: { drop: 1 } }], map: { k: { v: 'v', w: 1 } }, untyped: [{ a: 1 }, [{ b: 1 }]], apiVersion: 'v1', top: 1 }
  const { value: pruned, pruned: paths } = prune(schema, value)
  t.same(pruned, { list: [{ a: 'x' }], free: { any: [{ deep: 1 }], inner: { x: 'y' } }, listOfFree: [{ keep: 1, y: {} }], map: { k: { v: 'v' } }, untyped: [{}, [{}]] })
  t.same(paths, ['free.inner.z', 'listOfFree[0].y.drop', 'list[0].b', 'map.k.w', 'top', 'untyped[0].a', 'untyped[1][0].b'])
  t.same(prune(schema, { apiVersion: 'v1', kind: 'K', metadata: {} }, { resourceRoot: true }).value, { apiVersion: 'v1', kind: 'K', metadata: {} })
})

t.test('defaulting', async t => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      m: { type: 'object', additionalProperties: { type: 'string', default: 'd' } },
      n: { type: 'object', additionalProperties: { type: 'string' } },
      l: { type: 'array', items: { type: 'object', default: { a: 1 }, properties: { a: { type: 'integer' }, b: { type: 'integer', default: 2 } } } },
      o: { type: 'object', default: {}, properties: { p: { type: 'object', default: {}, properties: { q: { type: 'string', default: 'deep' } } } } },
      keep: { type: 'string', nullable: true },
      gone: { type: 'string' }
    }
  }
  t.same(applyDefaults(schema, { m: { a: null, b: 'x' }, n: { a: null }, l: [null, { a: 5 }], keep: null, gone: null }),
    { m: { a: 'd', b: 'x' }, n: {}, l: [{ a: 1, b: 2 }, { a: 5, b: 2 }], o: { p: { q: 'deep' } }, keep: null })
  t.same(applyDefaults(schema, { n: { a: null }, gone: null }, { pruneNulls: false }), { n: { a: null }, gone: null, o: { p: { q: 'deep' } } }, 'Cluster API only defaults')
  t.same(applyDefaults({ type: 'string', default: null } as JSONSchemaProps, 'x'), 'x')
})

t.test('list types', async t => {
  const s = toStructural({
    type: 'object',
    properties: {
      m: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' } } } },
      m2: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a', 'b'], items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } } },
      s: { type: 'array', 'x-kubernetes-list-type': 'set', items: { 'x-kubernetes-preserve-unknown-fields': true } },
      nested: { type: 'object', additionalProperties: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } }
    }
  })
  const errs = (v: Record<string, unknown>) => validateListTypes(undefined, s, v).map(fieldErrorString)
  t.same(errs({ m: [{ k: 'a' }, 'x'] }), ['m[1]: Invalid value: "x": must be an object for an array of list-type map'])
  t.same(errs({ m: [{}, null, { k: 'a' }, { k: 'a' }] }), ['m[1]: Duplicate value: {}', 'm[3]: Duplicate value: {"k":"a"}'])
  t.same(errs({ m2: [{ a: 'x', b: 1 }, { b: 1, a: 'x' }, null, {}] }), ['m2[1]: Duplicate value: {"a":"x","b":1}', 'm2[3]: Duplicate value: {}'])
  t.same(errs({ s: [1, '1', { a: 1 }, { a: 1 }, [1], [1], 1] }), ['s[3]: Duplicate value: {"a":1}', 's[5]: Duplicate value: [1]', 's[6]: Duplicate value: 1'])
  t.same(errs({ nested: { x: ['a', 'a'] } }), ['nested[x][1]: Duplicate value: "a"'])
  t.same(errs({ m: [{ k: 'a' }] }), [])
})

t.test('embedded resources', async t => {
  t.same(roundTripObjectMeta(null), { meta: {}, unknown: [] })
  t.match(roundTripObjectMeta('x'), { error: /cannot unmarshal/ })
  t.match(roundTripObjectMeta({ name: 1 }), { error: /ObjectMeta.name of type string/ })
  t.match(roundTripObjectMeta({ generation: 1.5 }), { error: /generation of type int64/ })
  t.match(roundTripObjectMeta({ creationTimestamp: 'x' }), { error: /creationTimestamp of type v1.Time/ })
  t.match(roundTripObjectMeta({ labels: { a: 1 } }), { error: /labels of type map/ })
  t.match(roundTripObjectMeta({ finalizers: [1] }), { error: /finalizers/ })
  t.match(roundTripObjectMeta({ ownerReferences: 'x' }), { error: /ownerReferences/ })
  t.same(roundTripObjectMeta({
    name: 'n',
    namespace: '',
    generation: 0,
    deletionGracePeriodSeconds: 0,
    creationTimestamp: '2021-01-01T10:00:00.5+01:00',
    deletionTimestamp: null,
    labels: {},
    annotations: { a: 'b' },
    finalizers: [],
    ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'o', uid: 'u', controller: true, extra: 1 }],
    managedFields: [{ manager: 'm' }],
    other: 1
  }), {
    meta: {
      name: 'n',
      deletionGracePeriodSeconds: 0,
      creationTimestamp: '2021-01-01T09:00:00Z',
      annotations: { a: 'b' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'o', uid: 'u', controller: true }],
      managedFields: [{ manager: 'm' }]
    },
    unknown: ['other']
  })
  const s = toStructural({ type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }, l: { type: 'array', items: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } } })
  t.match(coerceEmbedded(undefined, { e: { kind: 5 } }, s, false), { field: 'e.kind', detail: 'must be a string' })
  t.match(coerceEmbedded(undefined, { l: [{ metadata: { name: 5 } }] }, s, false), { field: 'l[0].metadata' })
  const errs = validateEmbedded(undefined, {
    e: { apiVersion: 'a/b/c', kind: '', metadata: { name: '..', generateName: 'a/', namespace: 'Bad', generation: -1, finalizers: ['bad finalizer'], annotations: { x: 'y'.repeat(256 * 1024) } } },
    l: [{ apiVersion: 5, kind: 5, metadata: 5 }, {}]
  }, s).map(fieldErrorString)
  t.same(errs, [
    'e.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    'e.kind: Invalid value: "": must not be empty',
    'e.metadata.generateName: Invalid value: "a/": may not contain \'/\'',
    'e.metadata.name: Invalid value: "..": may not be \'..\'',
    'e.metadata.namespace: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
    'e.metadata.generation: Invalid value: -1: must be greater than or equal to 0',
    'e.metadata.annotations: Too long: may not be more than 262144 bytes',
    'e.metadata.finalizers: Invalid value: "bad finalizer": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    'l[0].apiVersion: Invalid value: 5: must be a string',
    'l[0].kind: Invalid value: 5: must be a string',
    'l[0].metadata: Invalid value: 5: json: cannot unmarshal into Go value of type v1.ObjectMeta',
    'l[1].apiVersion: Required value',
    'l[1].kind: Required value'
  ])
})

t.test('create and update: type meta, metadata, status, decoding errors', async t => {
  const schema = compileSchema({ type: 'object', properties: { spec: { type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } }, status: { type: 'object', properties: { s: { type: 'string' } } } } })
  const o = { kind: 'Widget', group: 'example.com', version: 'v1', namespaced: true, statusSubresource: true }
  const base = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns' } }
  t.equal(createCustomResource(schema, { ...base, kind: 'Other' }, o).message, 'Widget.example.com "w" is invalid: kind: Invalid value: "Other": must be Widget')
  t.equal(createCustomResource(schema, { ...base, apiVersion: 'v1' }, o).message, 'Widget.example.com "w" is invalid: apiVersion: Invalid value: "v1": must be example.com/v1')
  t.equal(createCustomResource(schema, { ...base, apiVersion: 'example.com/v1', metadata: {} }, o).message, 'Widget.example.com "" is invalid: [metadata.name: Required value: name or generateName is required, metadata.namespace: Required value]')
  t.match(createCustomResource(schema, { ...base, metadata: { name: 'Bad_Name', generateName: 'x/', namespace: 'Bad' } }, o).message, /metadata.generateName: Invalid value: "x\/".*metadata.name: Invalid value: "Bad_Name".*metadata.namespace: Invalid value: "Bad"/)
  t.match(createCustomResource(schema, base, { ...o, namespaced: false }).message, /metadata.namespace: Forbidden: not allowed on this type/)
  t.same(createCustomResource(schema, { ...base, status: { s: 'x' } }, o).object.status, undefined, 'status is dropped on create')
  t.same(updateCustomResource(schema, { ...base, status: { s: 'new' } }, { ...base, status: { s: 'old' } }, o).object.status, { s: 'old' }, 'and kept on update')
  t.same(updateCustomResource(schema, { ...base, status: { s: 'new' } }, base, o).object.status, undefined)
  const r = createCustomResource(schema, { ...base, spec: { e: { kind: 5 } } }, o)
  t.equal(r.message, 'Widget.example.com "w" is invalid: spec.e.kind: Invalid value: 5: must be a string')
  t.same(createCustomResource(schema, { ...base, apiVersion: 'example.com/v1' }, {}).errors, [])
  t.equal(createCustomResource(schema, { apiVersion: 'v1', kind: 'K', metadata: { name: 'x' } }, { kind: 'K', group: '', version: 'v1' }).errors.length, 0)
  t.match(createCustomResource(schema, { ...base, metadata: { name: 'x', labels: { a: 1 } } }, o).object.metadata, { name: 'x', labels: { a: 1 } }, 'a malformed root metadata is left to the API server')
})

t.test('schemas the API server refuses', async t => {
  const refused: Array<[JSONSchemaProps, RegExp]> = [
    [{ id: 'x' }, /'id' is not supported/], [{ $schema: 'x' }, /'schema' is not supported/], [{ $ref: '#/x' }, /'\$ref' is not supported/],
    [{ patternProperties: { a: {} } }, /'patternProperties'/], [{ dependencies: { a: ['b'] } }, /'dependencies'/], [{ additionalItems: false }, /'additionalItems'/],
    [{ definitions: { a: {} } }, /'definitions'/], [{ items: [{}] }, /'items' must be a schema/], [{ 'x-kubernetes-preserve-unknown-fields': false }, /must be true or undefined/],
    [{ type: 'map' }, /type "map" is not one of/], [{ 'x-kubernetes-validations': [{ message: 'x' }] } as unknown as JSONSchemaProps, /need a string rule/],
    ['x' as unknown as JSONSchemaProps, /must be an object/]
  ]
  for (const [schema, message] of refused) t.throws(() => compileSchema(schema), { code: 'ERR_RUNTIME_SDK_APISERVER_SCHEMA', message }, JSON.stringify(schema))
})
