// The validators of Cluster API's hooks, generated ahead of time by `npm run generate` (validators.generated.ts) so
// that a process does not load Ajv or compile the schemas at run time: compiling BeforeClusterCreate's request alone
// takes ~80 ms and ~15 MB. check:generated keeps them in step with the schemas.
import type { ValidateFunction } from 'ajv'
import type { TSchema } from 'typebox'
import { groupVersion } from '../api/hooks/v1alpha1/index.js'
import type { Direction } from './schema-compiler.js'
import { validators } from './validators.generated.js'

/** One generated validator: a part of a hook, checked in one direction, under its key in the generated table. */
interface PrecompiledTarget {
  key: string
  hook: string
  part: 'request' | 'response'
  direction: Direction
  schema: TSchema
}

/** The directions each part of a hook is checked in. */
const PARTS = [['request', ['request']], ['response', ['response', 'decode']]] as const

/** Every validator the generated table holds: hooks.runtime.cluster.x-k8s.io/v1alpha1, each part in its directions. */
export function precompiledTargets (): PrecompiledTarget[] {
  const gv = groupVersion
  return gv.hooks.flatMap(def => PARTS.flatMap(([part, directions]) => directions.map(direction =>
    ({ key: `${gv.group}/${gv.version}/${def.hook}/${part}/${direction}`, hook: def.hook, part, direction, schema: def[part] }))))
}

let table: WeakMap<TSchema, Partial<Record<Direction, ValidateFunction>>> | undefined

/** The generated validator of a schema in a direction: the schema must be the very object it was generated from. */
export function precompiledValidator (schema: TSchema, direction: Direction): ValidateFunction | undefined {
  if (!table) {
    table = new WeakMap()
    for (const target of precompiledTargets()) {
      const fn = validators[target.key]
      if (fn) table.set(target.schema, { ...table.get(target.schema), [target.direction]: fn })
    }
  }
  return table.get(schema)?.[direction]
}
