// The validators of Cluster API's hooks, generated ahead of time by `npm run generate` (validators.generated.ts) so
// that a process does not load Ajv or compile the schemas at run time: compiling BeforeClusterCreate's request alone
// takes ~80 ms and ~15 MB. check:generated keeps them in step with the schemas.
import type { ValidateFunction } from 'ajv'
import type { TSchema } from 'typebox'
import type { HookGroupVersion } from '../api/hooks/define.js'
import { groupVersion } from '../api/hooks/v1alpha1/index.js'
import type { Direction } from './schema-compiler.js'
import { validators } from './validators.generated.js'

/** The group versions whose validators are generated, and the directions each part of a hook is checked in. */
export const PRECOMPILED_GROUP_VERSIONS: readonly HookGroupVersion[] = [groupVersion]
export const PRECOMPILED_PARTS = { request: ['request'], response: ['response', 'decode'] } as const satisfies Record<string, readonly Direction[]>

/** The key of one validator in the generated table. */
export function precompiledKey (gv: HookGroupVersion, hook: string, part: keyof typeof PRECOMPILED_PARTS, direction: Direction): string {
  return `${gv.group}/${gv.version}/${hook}/${part}/${direction}`
}

let table: WeakMap<TSchema, Partial<Record<Direction, ValidateFunction>>> | undefined

/** The generated validator of a schema in a direction: the schema must be the very object it was generated from. */
export function precompiledValidator (schema: TSchema, direction: Direction): ValidateFunction | undefined {
  table ??= tableOf(validators)
  return table.get(schema)?.[direction]
}

function tableOf (generated: Readonly<Record<string, ValidateFunction>>): WeakMap<TSchema, Partial<Record<Direction, ValidateFunction>>> {
  const out = new WeakMap<TSchema, Partial<Record<Direction, ValidateFunction>>>()
  for (const gv of PRECOMPILED_GROUP_VERSIONS) {
    for (const def of gv.hooks) {
      for (const [part, directions] of Object.entries(PRECOMPILED_PARTS) as Array<[keyof typeof PRECOMPILED_PARTS, readonly Direction[]]>) {
        const entry: Partial<Record<Direction, ValidateFunction>> = {}
        for (const direction of directions) {
          const fn = generated[precompiledKey(gv, def.hook, part, direction)]
          if (fn) entry[direction] = fn
        }
        out.set(def[part], entry)
      }
    }
  }
  return out
}
