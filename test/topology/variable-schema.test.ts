// The variable schema builder and defineVariables: what they write, and what Cluster API would refuse.
import t from 'tap'
import { createCatalog } from '../../src/catalog/default.js'
import { defineVariables, variableSchema as v } from '../../src/topology/index.js'

const { checkValue } = await import('../../src/topology/variable-schema.js')

t.test('the builder writes plain OpenAPI v3 as Cluster API takes it', async t => {
  const schema = v.object({
    registry: v.string({ default: 'registry.k8s.io', maxLength: 256, description: 'where images come from' }),
    mode: v.string({ enum: ['fast', 'safe'] }),
    replicas: v.integer({ minimum: 1, maximum: 7, format: 'int32' }),
    ratio: v.number({ exclusiveMaximum: true, maximum: 1 }),
    debug: v.boolean({ default: false }),
    files: v.array(v.object({ path: v.string(), content: v.string() }, { required: ['path'] }), { maxItems: 10 }),
    labels: v.map(v.string()),
    extra: v.anyObject(),
    surge: v.intOrString({ example: '25%' })
  }, { required: ['registry'], validations: [{ rule: 'self.replicas % 2 == 1', message: 'odd', reason: 'FieldValueInvalid' }], metadata: { labels: { a: 'b' } } })
  t.same(schema, {
    type: 'object',
    properties: {
      registry: { type: 'string', maxLength: 256, description: 'where images come from', default: 'registry.k8s.io' },
      mode: { type: 'string', enum: ['fast', 'safe'] },
      replicas: { type: 'integer', minimum: 1, maximum: 7, format: 'int32' },
      ratio: { type: 'number', maximum: 1, exclusiveMaximum: true },
      debug: { type: 'boolean', default: false },
      files: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path'] }, maxItems: 10 },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      surge: { 'x-kubernetes-int-or-string': true, example: '25%' }
    },
    required: ['registry'],
    'x-kubernetes-validations': [{ rule: 'self.replicas % 2 == 1', message: 'odd', reason: 'FieldValueInvalid' }],
    'x-metadata': { labels: { a: 'b' } }
  })
  const variables = defineVariables([{ name: 'config', required: true, schema }])
  const answer = { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', kind: 'DiscoverVariablesResponse', status: 'Success', variables }
  t.same(createCatalog().validateResponse({ group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1', hook: 'DiscoverVariables' }, answer), { valid: true }, 'a valid DiscoverVariables answer')
})

t.test('defineVariables refuses what Cluster API refuses, naming the variable and the path', async t => {
  const refused: Array<[Parameters<typeof defineVariables>[0], RegExp]> = [
    [[{ name: '', required: false, schema: v.string() }], /^variable "": name: Required value/],
    [[{ name: 'builtin', required: false, schema: v.string() }], /"builtin" is a reserved variable name/],
    [[{ name: 'a.b', required: false, schema: v.string() }], /variable name cannot contain "\."/],
    [[{ name: 'a', required: false, schema: v.string() }, { name: 'a', required: false, schema: v.string() }], /variable names must be unique/],
    [[{ name: 'a', required: false, schema: {} }], /schema.openAPIV3Schema.type: Required value/],
    [[{ name: 'a', required: false, schema: v.object({ x: {} }) }], /schema.openAPIV3Schema.properties\[x\].type: Required value/],
    [[{ name: 'a', required: false, schema: { type: 'object', properties: {}, additionalProperties: { type: 'string' } } }], /additionalProperties and properties are mutually exclusive/],
    [[{ name: 'a', required: false, schema: { type: 'string', allOf: [{ type: 'string' }] } }], /allOf\[0\]: Forbidden: must only have value validations/],
    [[{ name: 'a', required: false, schema: v.string({ default: 'too long', maxLength: 3 }) }], /openAPIV3Schema.default: Invalid value: may not be more than 3 characters long/],
    [[{ name: 'a', required: false, schema: v.integer({ example: 0, minimum: 1 }) }], /example: Invalid value: must be at least 1/],
    [[{ name: 'a', required: false, schema: { type: 'string', enum: ['ok', 5] } }], /enum\[1\]: Invalid value: must be a string/],
    [[{ name: 'a', required: false, schema: v.string({ validations: [{ rule: ' ' }] }) }], /x-kubernetes-validations\[0\].rule: Required value: rule is not specified/],
    [[{ name: 'a', required: false, schema: v.string({ validations: [{ rule: 'self != ""', message: 'a\nb' }] }) }], /message must not contain line breaks/],
    [[{ name: 'a', required: false, schema: v.string({ validations: [{ rule: 'self !=\n""' }] }) }], /message must be specified if rule contains line breaks/],
    [[{ name: 'a', required: false, schema: { type: 'string', 'x-kubernetes-validations': [{ rule: 'true', reason: 'Bogus' as never }] } }], /reason: Unsupported value: "Bogus"/]
  ]
  for (const [definitions, message] of refused) t.throws(() => defineVariables(definitions), { name: 'VariableSchemaError', code: 'ERR_RUNTIME_SDK_VARIABLE_SCHEMA', message }, String(message))
})

t.test('checkValue: the OpenAPI keywords of variable schemas', async t => {
  const cases: Array<[object, unknown, string | undefined]> = [
    [v.string({ minLength: 2 }), 'é', 'must be at least 2 characters long'],
    [v.string({ maxLength: 1 }), 'é', undefined],
    [v.integer(), 1.5, 'must be an integer'],
    [v.number({ minimum: 1, exclusiveMinimum: true }), 1, 'must be greater than 1'],
    [v.array(v.integer(), { uniqueItems: true }), [1, 1], 'must not have duplicate items'],
    [v.array(v.integer(), { minItems: 1 }), [], 'must have at least 1 items'],
    [v.array(v.integer()), [1, 'x'], '[1]: must be an integer'],
    [v.map(v.integer(), { maxProperties: 1 }), { a: 1, b: 2 }, 'must have at most 1 properties'],
    [v.map(v.integer()), { a: 'x' }, '.a: must be an integer'],
    [v.intOrString(), true, 'must be an integer or a string'],
    [{ type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] }, 'c', 'must match at least one schema of anyOf'],
    [{ type: 'string', oneOf: [{ pattern: '^a' }, { pattern: 'a$' }] }, 'aa', 'must match exactly one schema of oneOf'],
    [{ type: 'string', not: { pattern: '^a' } }, 'a', 'must not match the schema of not'],
    [{ type: 'object', allOf: [{ required: ['x'] }] }, {}, '.x: Required value'],
    [v.string({ enum: ['a'] }), 'b', 'must be one of "a"']
  ]
  for (const [schema, value, problem] of cases) t.equal(checkValue(schema, value), problem, `${JSON.stringify(schema)} ${JSON.stringify(value)}`)
})
