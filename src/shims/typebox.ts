// The seven TypeBox constructors our own schemas use, without loading TypeBox at run time: importing it
// evaluates ~370 modules, about half of `serve`'s start-up and 20 MB of its resident set. Each returns what
// TypeBox's constructor returns (the same JSON and the same hidden `~kind`/`~optional` markers, so TypeBox's own
// Type.Object honours our Optional; test/shims/typebox.test.ts compares them) and is typed as TypeBox's, so
// Static<> infers the same types.
import type { TObjectOptions, TSchema, TString, Type as TypeBox } from 'typebox'

type Schema = Record<string, unknown>

function marked<T extends object> (schema: T, key: '~kind' | '~optional' | '~unsafe', value: unknown): T {
  return Object.defineProperty(schema, key, { value, writable: true, enumerable: false, configurable: true })
}

function object (properties: Record<string, object>, options: Schema = {}): Schema {
  const required = Object.keys(properties).filter(key => !('~optional' in (properties[key] as object)))
  return marked({ type: 'object', ...(required.length > 0 ? { required } : {}), properties, ...options }, '~kind', 'Object')
}

function record (key: Schema, value: object, options: Schema = {}): Schema {
  // Only string keys are used (and supported): TypeBox maps them to this one pattern.
  if (key['type'] !== 'string' || Object.keys(key).length !== 1) throw new TypeError('Type.Record: only Type.String() keys are supported')
  return marked({ type: 'object', patternProperties: { '^.*$': value }, ...options }, '~kind', 'Record')
}

/** A shallow copy that keeps the hidden markers too. */
function copy (schema: object): object {
  return Object.defineProperties({}, Object.getOwnPropertyDescriptors(schema))
}

export const Type = {
  Object: object as unknown as typeof TypeBox.Object,
  String: ((options: Schema = {}) => marked({ type: 'string', ...options }, '~kind', 'String')) as unknown as typeof TypeBox.String,
  Integer: ((options: Schema = {}) => marked({ type: 'integer', ...options }, '~kind', 'Integer')) as unknown as typeof TypeBox.Integer,
  Array: ((items: object, options: Schema = {}) => marked({ type: 'array', items, ...options }, '~kind', 'Array')) as unknown as typeof TypeBox.Array,
  Record: record as unknown as <Value extends TSchema>(key: TString, value: Value, options?: TObjectOptions) => ReturnType<typeof TypeBox.Record<TString, Value>>,
  Optional: ((schema: object) => marked(copy(schema), '~optional', true)) as unknown as typeof TypeBox.Optional,
  Unsafe: ((schema: object) => marked(copy(schema), '~unsafe', null)) as unknown as typeof TypeBox.Unsafe
}
