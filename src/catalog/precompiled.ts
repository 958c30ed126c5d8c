// The validators of Cluster API's hooks, generated ahead of time by `npm run generate` so that a process does not
// load Ajv or compile the schemas at run time: compiling BeforeClusterCreate's request alone takes ~80 ms and ~15 MB.
// They are CommonJS, as Ajv writes them, in one file per group of hooks (Cluster API's: lifecycle, topology
// mutation, ...; the hooks of a group embed the same objects), copied to dist/ by the build. A group's file is
// loaded on the first validation of one of its hooks: a controller that only calls Discovery holds only Discovery's.
// check:generated keeps them in step with the schemas.
import { createRequire } from 'node:module'
import type { ValidateFunction } from 'ajv'
import type { TSchema } from 'typebox'
import { groupVersion } from '../api/hooks/v1alpha1/index.js'
import type { Direction } from './schema-compiler.js'

/** One generated validator: a part of a hook, checked in one direction, exported by its group's file under its key. */
interface PrecompiledTarget {
  /** key names it: hooks.runtime.cluster.x-k8s.io/v1alpha1/<hook>/<part>/<direction>. */
  key: string
  hook: string
  part: 'request' | 'response'
  direction: Direction
  /** file is its group's, relative to this module (see validatorsFile). */
  file: string
  schema: TSchema
}

/** The directions each part of a hook is checked in. */
const PARTS = [['request', ['request']], ['response', ['response', 'decode']]] as const

/** The directory of the generated files, beside this module. */
export const VALIDATORS_DIR = 'validators'

/** The generated file of a group of hooks (its first tag, e.g. Lifecycle Hooks), relative to this module. */
function validatorsFile (group: string): string {
  return `./${VALIDATORS_DIR}/${group.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.generated.cjs`
}

/** Every validator generated: hooks.runtime.cluster.x-k8s.io/v1alpha1, each part in its directions. */
export function precompiledTargets (): PrecompiledTarget[] {
  const gv = groupVersion
  return gv.hooks.flatMap(def => PARTS.flatMap(([part, directions]) => directions.map(direction =>
    ({ key: `${gv.group}/${gv.version}/${def.hook}/${part}/${direction}`, hook: def.hook, part, direction, file: validatorsFile(def.meta.tags[0] ?? def.hook), schema: def[part] }))))
}

const requireHere = createRequire(import.meta.url)
let targets: WeakMap<TSchema, Partial<Record<Direction, PrecompiledTarget>>> | undefined

/** The generated validator of a schema in a direction: the schema must be the very object it was generated from. */
export function precompiledValidator (schema: TSchema, direction: Direction): ValidateFunction | undefined {
  if (!targets) {
    targets = new WeakMap()
    for (const target of precompiledTargets()) targets.set(target.schema, { ...targets.get(target.schema), [target.direction]: target })
  }
  const target = targets.get(schema)?.[direction]
  // require's cache keeps the file: it is read once, on the first validation of one of its hooks.
  return target && (requireHere(target.file) as Readonly<Record<string, ValidateFunction>>)[target.key]
}
