// The CEL side of src/apiserver beyond what the recorded API server answers cover: the compile errors of rules the
// API server would refuse (a CRD with them is never created, so there is no answer to record), how a failing rule
// becomes a field error (message, messageExpression and its fallbacks, fieldPath, reason), transition rules and
// ratcheting on update, and values typed from schemas that OpenAPI validation would have refused first.
import t from 'tap'
import { ApiServerSchemaError, applyDefaults, compileSchema, type CompiledSchema, fieldErrorString, type JSONSchemaProps, type SchemaInput, validateRules } from '../../src/apiserver/index.js'
import { escapeName, unescapeName } from '../../src/apiserver/cel/escaping.js'
import { evaluate, Scope } from '../../src/apiserver/cel/eval.js'
import { parseCel, rewriteOptionalSyntax } from '../../src/apiserver/cel/parse.js'
import { declType, toCel, UnknownPreserved } from '../../src/apiserver/cel/typing.js'
import { CelError, CelList, CelMap, CelOptional, CelUint, type Val } from '../../src/apiserver/cel/values.js'
import { toStructural } from '../../src/apiserver/schema.js'

const int: JSONSchemaProps = { type: 'integer' }
const str: JSONSchemaProps = { type: 'string' }
const withRules = (rules: JSONSchemaProps['x-kubernetes-validations'], props: JSONSchemaProps = { type: 'object', properties: { a: int, s: str } }): JSONSchemaProps =>
  ({ ...props, 'x-kubernetes-validations': rules })
const strings = (errs: ReturnType<typeof validateRules>) => errs.map(fieldErrorString)

/** Evaluates an expression with self bound to value typed by props. */
function run (expr: string, value: unknown = {}, props: JSONSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }): Val {
  return evaluate(parseCel(expr), new Scope(new Map([['self', toCel(value, toStructural(props))]])))
}
const message = (v: Val) => v instanceof CelError ? v.message : undefined

t.test('rules the API server would not compile', async t => {
  const refused: Array<[string, { rule: string, messageExpression?: string }, RegExp]> = [
    ['a syntax error', { rule: 'self.a ==' }, /rule: compilation failed: Syntax error: .*\("self.a =="\)$/],
    ['an undeclared variable', { rule: 'foo == 1' }, /undeclared reference to 'foo' \(in container ''\)/],
    ['an undeclared function', { rule: 'self.s.frobnicate()' }, /undeclared reference to 'frobnicate'/],
    ['a member function called as a global', { rule: "charAt('a', 0) == 'a'" }, /undeclared reference to 'charAt'/],
    ['a field the schema does not declare', { rule: 'self.nope == 1' }, /undefined field 'nope'/],
    ['a field of an int', { rule: 'self.a.b == 1' }, /type 'int' does not support field selection/],
    ['cel.bind', { rule: 'cel.bind(x, 1, x == 1)' }, /function 'cel.bind' is not supported/],
    ['the math extension', { rule: 'math.greatest(1, 2) == 2' }, /the math extension is not part of the Kubernetes CEL environment/],
    ['the authorizer library', { rule: "authorizer.path('/x').check('get').allowed()" }, /only available to admission policies/],
    ['a rule that is not a bool', { rule: 'self.a' }, /cel expression must evaluate to a bool/],
    ['a messageExpression that is not a string', { rule: 'true', messageExpression: '1' }, /messageExpression: messageExpression compilation failed: messageExpression must evaluate to a string/],
    ['a messageExpression that does not parse', { rule: 'true', messageExpression: '"a" +' }, /messageExpression compilation failed: Syntax error/],
    ['message construction', { rule: "google.protobuf.Duration{seconds: 1} == duration('1s')" }, /message construction .* is not supported/],
    ['sortBy on a literal', { rule: '1.sortBy(x, x) == []' }, /sortBy can only be applied to a list, identifier, comprehension, call or select expression/],
    ['sortBy with a non-name', { rule: '[1].sortBy(1, 2) == []' }, /argument must be a simple name/],
    ['two iteration variables of the same name', { rule: '[1].all(x, x, true)' }, /duplicate variable name: x/],
    ['optMap with a non-name', { rule: 'optional.of(1).optMap(1, 2).hasValue()' }, /optMap\(\) variable name must be a simple identifier/]
  ]
  for (const [what, rule, want] of refused) {
    t.throws(() => compileSchema(withRules([rule]), { resourceRoot: false }), want, what)
  }
  t.throws(() => compileSchema(withRules([{ rule: 'true', reason: 'Sometimes' }])),
    /x-kubernetes-validations\[0\]\.reason: Unsupported value: "Sometimes": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"/)
  t.throws(() => compileSchema(withRules([{ rule: 'true', fieldPath: '.nope' }])), /fieldPath: Invalid value: "\.nope": must be a valid path/)
  for (const fieldPath of ['a', '.a.b', "['a'", '[a]', "['\\q']", '.']) {
    t.throws(() => compileSchema(withRules([{ rule: 'true', fieldPath }]), { resourceRoot: false }), ApiServerSchemaError, fieldPath)
  }
  t.throws(() => compileSchema({ 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: 'true' }] }), /failed to convert to declType/)
  const err = t.throws(() => compileSchema(withRules([{ rule: 'self.a ==' }]))) as unknown
  t.equal((err as { code?: string }).code, 'ERR_RUNTIME_SDK_APISERVER_SCHEMA')
  // An empty rule is skipped, as the API server skips it.
  t.same(validateRules(withRules([{ rule: '  ' }]), { a: 1 }), [])
})

t.test('a failing rule as a field error', async t => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { a: int, s: str, m: { type: 'object', additionalProperties: str }, o: { type: 'object', properties: { 'x-y': int } } },
    'x-kubernetes-validations': [
      { rule: 'self.a > 0', message: ' must be positive ' },
      { rule: 'self.a > 1', messageExpression: "''", message: 'fallback for empty' },
      { rule: 'self.a > 2', messageExpression: "'line\\nbreak'" },
      { rule: 'self.a > 3', messageExpression: "'  padded  '" },
      { rule: 'self.a > 4', messageExpression: 'self.s.substring(100)', message: 'fallback for error' },
      { rule: 'self.a > 5', messageExpression: "'a is ' + string(self.a)", fieldPath: '.a' },
      { rule: 'self.a > 6', fieldPath: "['m']['k.z']", reason: 'FieldValueForbidden' },
      { rule: 'self.a > 7', fieldPath: ".o['x-y']", reason: 'FieldValueRequired' },
      { rule: 'self.a > 8', reason: 'FieldValueDuplicate' },
      { rule: 'self.a > 9', messageExpression: 'self.s', message: 'too long' },
      { rule: 'self.a > 10', reason: 'FieldValueInvalid' }
    ]
  }
  t.same(strings(validateRules(schema, { a: 0, s: 'short' }, undefined, 'spec')), [
    'spec: Invalid value: must be positive',
    'spec: Invalid value: fallback for empty',
    'spec: Invalid value: failed rule: self.a > 2',
    'spec: Invalid value: padded',
    'spec: Invalid value: fallback for error',
    'spec.a: Invalid value: a is 0',
    'spec.m[k.z]: Forbidden: failed rule: self.a > 6',
    'spec.o.x-y: Required value: failed rule: self.a > 7',
    'spec: Duplicate value',
    'spec: Invalid value: short',
    'spec: Invalid value: failed rule: self.a > 10'
  ])
  // A messageExpression longer than 5 KiB falls back; without a path, errors name no field.
  const long = strings(validateRules(schema, { a: 9, s: 'x'.repeat(5121) }))
  t.same(long, ['<nil>: Invalid value: too long', '<nil>: Invalid value: failed rule: self.a > 10'])
  // A rule on a scalar prints the value; a runtime error names the rule (its message when it has one).
  const scalar: JSONSchemaProps = { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 1' }, { rule: 'self / 0 > 1', message: 'divides' }, { rule: "dyn(self) + 'a' == ''" }] }
  t.same(strings(validateRules(scalar, 1, undefined, 'spec.n')), [
    'spec.n: Invalid value: 1: failed rule: self > 1',
    'spec.n: Invalid value: "integer": division by zero evaluating rule: divides',
    "spec.n: Invalid value: \"integer\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: dyn(self) + 'a' == ''"
  ])
  // Rules of an allOf branch run on the node too.
  const allOf: JSONSchemaProps = { type: 'object', properties: { a: int }, allOf: [{ 'x-kubernetes-validations': [{ rule: 'self.a != 3', message: 'not three' }] }] }
  t.same(strings(validateRules(allOf, { a: 3 }, undefined, 'spec')), ['spec: Invalid value: not three'])
})

t.test('updates: transition rules, optionalOldSelf, ratcheting', async t => {
  const item: JSONSchemaProps = { type: 'object', required: ['k'], properties: { k: str, v: int }, 'x-kubernetes-validations': [{ rule: 'self.v < 10', message: 'small' }] }
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      a: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }, { rule: 'self < 100', message: 'under 100' }] },
      b: { type: 'integer', 'x-kubernetes-validations': [{ rule: '!oldSelf.hasValue() || self >= oldSelf.value()', message: 'no decrease', optionalOldSelf: true }] },
      l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: item },
      plain: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 10', message: 'digit' }] } },
      m: { type: 'object', additionalProperties: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 10', message: 'digit' }] } },
      atomic: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { x: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'fixed' }] } } }
    }
  }
  // On create, a transition rule does not run; an optionalOldSelf rule does, with oldSelf none.
  t.same(strings(validateRules(schema, { a: 200, b: 1 }, undefined, 'spec')), ['spec.a: Invalid value: 200: under 100'])
  t.same(strings(validateRules(schema, { a: 2, b: 1 }, { a: 1, b: 5 }, 'spec')), ['spec.a: Invalid value: 2: immutable', 'spec.b: Invalid value: 1: no decrease'])
  // Unchanged invalid values are ratcheted: their errors are dropped; changed ones are not.
  const old = { a: 200, l: [{ k: 'x', v: 20 }, { k: 'y', v: 1 }], plain: [50], m: { p: 50, q: 1 }, atomic: { x: 1 } }
  t.same(strings(validateRules(schema, { a: 200, l: [{ k: 'y', v: 1 }, { k: 'x', v: 20 }], plain: [50], m: { p: 50, q: 1 }, atomic: { x: 1 } }, old, 'spec')), [])
  t.same(strings(validateRules(schema, { a: 300, l: [{ k: 'x', v: 21 }], plain: [50, 60], m: { p: 51 }, atomic: { x: 2 } }, old, 'spec')), [
    'spec.a: Invalid value: 300: immutable',
    'spec.a: Invalid value: 300: under 100',
    'spec.l[0]: Invalid value: small',
    'spec.plain[0]: Invalid value: 50: digit',
    'spec.plain[1]: Invalid value: 60: digit',
    'spec.m[p]: Invalid value: 51: digit',
    'spec.atomic.x: Invalid value: 2: fixed'
  ])
  // A list-type=map item whose key changed has no old counterpart, so a transition rule under it does not run.
  const keyed: JSONSchemaProps = { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: str, v: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'fixed' }] } } } }
  t.same(strings(validateRules(keyed, [{ k: 'new', v: 2 }], [{ k: 'old', v: 1 }], 'spec.l')), [])
  t.same(strings(validateRules(keyed, [{ k: 'old', v: 2 }], [{ k: 'old', v: 1 }], 'spec.l')), ['spec.l[0].v: Invalid value: 2: fixed'])
  // A whole object (resource root): self sees apiVersion, kind and metadata.name.
  const root: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { n: int } } }, 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('ok-') && self.kind == 'Thing'", message: 'named' }] }
  t.same(strings(validateRules(root, { apiVersion: 'x/v1', kind: 'Thing', metadata: { name: 'bad' }, spec: {} }, undefined, undefined, { resourceRoot: true })), ['<nil>: Invalid value: named'])
  t.same(validateRules(root, { apiVersion: 'x/v1', kind: 'Thing', metadata: { name: 'ok-1' }, spec: {} }, undefined, undefined, { resourceRoot: true }), [])
})

t.test('values typed from the schema', async t => {
  const bad: Array<[JSONSchemaProps, unknown, string]> = [
    [int, 1.5, 'invalid data, expected int, got float64'],
    [int, 'x', 'invalid data, expected int, got string'],
    [{ type: 'number' }, true, 'invalid data, expected float, got bool'],
    [{ type: 'boolean' }, [], 'invalid data, expected bool, got []interface {}'],
    [str, {}, 'invalid data, expected string, got map[string]interface {}'],
    [str, 1, 'invalid data, expected string, got int64'],
    [{ type: 'object', properties: {} }, [], 'invalid data, expected a map for the provided schema with type=object'],
    [{ type: 'array', items: int }, {}, 'invalid data, expected an array for the provided schema with type=array'],
    [{ 'x-kubernetes-int-or-string': true }, 1.5, 'invalid data, expected XIntOrString value to be either a string or integer'],
    [{ type: 'string', format: 'duration' }, '1 fortnight', 'Invalid duration 1 fortnight: unable to parse 1 fortnight as duration'],
    [{ type: 'string', format: 'date' }, '2020-13-01', 'Invalid date formatted string 2020-13-01: parsing time "2020-13-01" as "2006-01-02": cannot parse "2020-13-01" as "2006"'],
    [{ type: 'string', format: 'date-time' }, 'yesterday', 'Invalid date-time formatted string yesterday: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    [{ type: 'string', format: 'byte' }, 'abc', 'Invalid byte formatted string abc: illegal base64 data at input byte 0'],
    [{ type: 'string', format: 'byte' }, 'ab$=', 'Invalid byte formatted string ab$=: illegal base64 data at input byte 2'],
    [{ type: 'string', format: 'byte' }, 'a=bc', 'Invalid byte formatted string a=bc: illegal base64 data at input byte 1'],
    [{ type: 'array', items: int, 'x-kubernetes-list-type': 'bag' }, [], "invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got bag"],
    [int, null, 'invalid data, got null for schema with nullable=false']
  ]
  for (const [props, value, want] of bad) t.equal(message(toCel(value, toStructural(props))), want, want)
  t.equal(toCel(null, toStructural({ type: 'string', nullable: true })), null)
  const s = toStructural({ type: 'array', items: int })
  t.equal(message(toCel([], { ...s, items: undefined })), 'invalid array type, expected Items with a non-empty Schema')
  t.equal(message(toCel(1, { ...toStructural(int), type: 'widget' } as unknown as ReturnType<typeof toStructural>)), 'invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got widget')
  // A value kept under x-kubernetes-preserve-unknown-fields with no type compares, and nothing else.
  const preserved = toStructural({ 'x-kubernetes-preserve-unknown-fields': true })
  const a = toCel({ x: [1] }, preserved)
  t.ok(a instanceof UnknownPreserved)
  t.ok((a as UnknownPreserved).equals(toCel({ x: [1] }, preserved) as UnknownPreserved))
  t.notOk((a as UnknownPreserved).equals(toCel({ x: [2] }, preserved) as UnknownPreserved))
  const props: JSONSchemaProps = { type: 'object', properties: { p: { 'x-kubernetes-preserve-unknown-fields': true }, q: { 'x-kubernetes-preserve-unknown-fields': true } } }
  t.equal(run('self.p == self.q', { p: { a: 1 }, q: { a: 1 } }, props), true)
  t.equal(run('self.p == self.q', { p: { a: 1 }, q: { a: 2 } }, props), false)
  // Types: an array without items, and an object whose property names cannot be CEL names, lose what they cannot type.
  t.equal(declType(toStructural({ type: 'array' })), undefined)
  t.equal(declType(toStructural({ type: 'string', format: 'byte' }))?.kind, 'prim')
  const named = declType(toStructural({ type: 'object', properties: { 'has space': int, ok: int } }))
  t.same(named?.kind === 'object' ? [...named.fields.keys()] : [], ['ok'])
})

t.test('evaluation details', async t => {
  t.equal(run('dyn(1) ? 1 : 2') instanceof CelError, true)
  t.equal(message(run('[?dyn(1)]')), 'cannot initialize optional list element from non-optional value 1')
  t.equal(message(run("{?'a': dyn(1)}")), "cannot initialize optional entry 'a' from non-optional value 1")
  t.equal(message(run('{[1]: 2}')), 'unsupported key type: list')
  // or and orValue short-circuit: a receiver that is not an optional is the result.
  t.equal(run('dyn(1).orValue(2)'), 1n)
  t.equal(run('optional.none().or(dyn(2))'), 2n)
  t.same(run('optional.of(1).or(dyn(2))'), new CelOptional(1n))
  t.equal(message(run('undeclared')), "undeclared reference to 'undeclared'")
  const map = run("{?'a': optional.none(), 'b': 1, 'b': 2}")
  t.ok(map instanceof CelMap && map.size === 1 && map.find('b') === 2n)
  const list = run('[?optional.of(1), ?optional.none(), 2]')
  t.ok(list instanceof CelList && list.items.length === 2)
  t.equal(run('{1: 2}[1u]'), 2n)
  t.same(run('{1u: 2}[1]'), 2n)
  t.equal(run('{1: 2}[1.0]'), 2n)
  t.equal(message(run("{'a': 1}[1.5]")), 'no such key: 1.5')
  t.ok(run("optional.of({'a': 1}).a") instanceof CelOptional)
  t.ok(run('[1, 2, 3].exists(x, x / 0 > 1 || x == 2)'), 'an error absorbed by a later true')
  t.equal(message(run('[1, 2].all(x, x / 0 > 1)')), 'division by zero')
  t.same(run('optional.none().?a'), CelOptional.NONE)
  t.same(run('optional.none()[?1]'), CelOptional.NONE)
  t.same(run('1u'), new CelUint(1n))
  t.equal(run('type(1) == int && type(int) == type'), true)
  // The optional syntax is rewritten before parsing, outside strings and comments.
  t.equal(rewriteOptionalSyntax("a.?b // c.?d\n + '[?x]' + r'\\'?' + b'?'"), "a._optsel_('b') // c.?d\n + '[?x]' + r'\\'?' + b'?'")
  t.equal(run("'''a'''.size() + \"\"\"bc\"\"\".size()"), 3n)
  t.throws(() => parseCel('a.?'), /Syntax error/)
})

t.test('property names as CEL names', async t => {
  const pairs: Array<[string, string | undefined]> = [['foo-bar', 'foo__dash__bar'], ['a.b/c', 'a__dot__b__slash__c'], ['__x', '__underscores__x'], ['namespace', '__namespace__'],
    ['1a', undefined], ['', undefined], ['has space', undefined], ['ok_name', 'ok_name']]
  for (const [name, escaped] of pairs) {
    t.equal(escapeName(name), escaped, name)
    if (escaped !== undefined) t.equal(unescapeName(escaped), name, escaped)
  }
  t.equal(unescapeName('a__bogus__b'), undefined)
  t.equal(unescapeName('x__if__'), undefined, 'a keyword is only escaped as the whole name')
})

t.test('a schema as written or compiled once', async t => {
  const props: JSONSchemaProps = { type: 'object', properties: { n: { type: 'integer', default: 1, 'x-kubernetes-validations': [{ rule: 'self < 5', message: 'small' }] } } }
  const compiled: CompiledSchema = compileSchema(props, { resourceRoot: false })
  t.equal(compileSchema(props, { resourceRoot: false }), compiled, 'compiled once per schema object')
  t.not(compileSchema(props), compiled, 'a whole object\'s schema is compiled apart')
  const inputs: SchemaInput[] = [props, compiled]
  for (const input of inputs) {
    t.same(applyDefaults(input, {}), { n: 1 })
    t.same(strings(validateRules(input, { n: 7 }, undefined, 'spec')), ['spec.n: Invalid value: 7: small'])
  }
})
