// Our seven TypeBox constructors build what TypeBox's build: the same JSON in the same key order, the same hidden
// markers, and schemas that mix with TypeBox's own (a user's hook group built with TypeBox around our Optional).
import t from 'tap'
import { Type as TypeBox } from 'typebox'
import { Type } from '../../src/shims/typebox.js'

/** Everything that makes a schema: enumerable keys in order (JSON), and each hidden marker with its value. */
function anatomy (schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema
  if (Array.isArray(schema)) return schema.map(anatomy)
  return Reflect.ownKeys(schema).sort((a, b) => {
    const hidden = (k: string | symbol) => String(k).startsWith('~') ? 1 : 0
    return hidden(a) - hidden(b) || (hidden(a) ? String(a).localeCompare(String(b)) : 0)
  }).map(key => [String(key), anatomy((schema as Record<string | symbol, unknown>)[key])])
}

const inner = () => ({ type: 'string', maxLength: 3 } as const)

t.test('each constructor matches TypeBox', async t => {
  const cases: Array<[string, () => unknown, () => unknown]> = [
    ['String', () => Type.String(), () => TypeBox.String()],
    ['String with options', () => Type.String({ maxLength: 5, format: 'date-time', description: 'd' }), () => TypeBox.String({ maxLength: 5, format: 'date-time', description: 'd' })],
    ['Integer', () => Type.Integer({ format: 'int32', minimum: 0 }), () => TypeBox.Integer({ format: 'int32', minimum: 0 })],
    ['Array', () => Type.Array(Type.String(), { maxItems: 2 }), () => TypeBox.Array(TypeBox.String(), { maxItems: 2 })],
    ['Record', () => Type.Record(Type.String(), Type.String(), { description: 'x' }), () => TypeBox.Record(TypeBox.String(), TypeBox.String(), { description: 'x' })],
    ['Optional', () => Type.Optional(Type.String({ maxLength: 3 })), () => TypeBox.Optional(TypeBox.String({ maxLength: 3 }))],
    ['Unsafe', () => Type.Unsafe<string>(inner()), () => TypeBox.Unsafe<string>(inner())],
    ['Object with required and optional fields', () => Type.Object({ a: Type.Optional(Type.String()), b: Type.Integer() }, { additionalProperties: false, description: 'd' }),
      () => TypeBox.Object({ a: TypeBox.Optional(TypeBox.String()), b: TypeBox.Integer() }, { additionalProperties: false, description: 'd' })],
    ['Object with only optional fields', () => Type.Object({ a: Type.Optional(Type.Object({})) }), () => TypeBox.Object({ a: TypeBox.Optional(TypeBox.Object({})) })]
  ]
  for (const [name, ours, theirs] of cases) {
    t.same(anatomy(ours()), anatomy(theirs()), name)
    t.equal(JSON.stringify(ours()), JSON.stringify(theirs()), `${name}: same JSON, same key order`)
  }
})

t.test('Optional and Unsafe copy, the others keep the schemas they are given', async t => {
  const s = Type.String()
  t.not(Type.Optional(s), s)
  t.notOk('~optional' in s, 'Optional leaves its argument required')
  const properties = { s }
  t.equal(Type.Object(properties).properties, properties)
  t.equal(Type.Array(s).items, s)
})

t.test('schemas mix with TypeBox: its Object honours our Optional, ours honours its', async t => {
  t.same(TypeBox.Object({ a: Type.Optional(Type.String()), b: Type.String() }).required, ['b'])
  t.same(Type.Object({ a: TypeBox.Optional(TypeBox.String()), b: TypeBox.String() }).required, ['b'])
})

t.test('a Record key other than a plain string is refused, not silently mis-built', async t => {
  t.throws(() => Type.Record(Type.String({ pattern: '^a' }), Type.String()), /only Type.String\(\) keys/)
})
