// The decoders of Cluster API's hooks, generated ahead of time by `npm run generate` (tools/decoders.ts): a request or
// response of one of its hooks is checked as Go's encoding/json decodes it into Cluster API's types, with nothing
// compiled at run time. They are CommonJS, one file per group of hooks (Cluster API's: lifecycle, topology mutation,
// ...; the hooks of a group carry the same objects), copied to dist/ by the build; a group's file is loaded on the
// first check of one of its hooks, so a controller that only calls Discovery holds only Discovery's. Each file exports
// a function that takes the rules (decoder/rules.ts) and returns the checker of every request and response of its
// group by definition name. check:generated keeps them in step with the definitions.
import { createRequire } from 'node:module'
import type { TSchema } from 'typebox'
import { groupVersion } from '../api/hooks/v1alpha1/index.js'
import { capiHooks } from '../api/hooks/v1alpha1/capi.js'
import { definitionSchema } from '../api/hooks/v1alpha1/schemas.js'
import * as rules from './decoder/rules.js'

/** What a generated file exports. */
type DecodersModule = (ruleSet: typeof rules) => Readonly<Record<string, rules.Checker>>

/** The directory of the generated files, beside this module. */
export const DECODERS_DIR = 'decoders'

/** The generated file of a group of hooks (its first tag, e.g. Lifecycle Hooks), relative to this module. */
function decodersFile (group: string): string {
  return `./${DECODERS_DIR}/${group.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.generated.cjs`
}

/** The hooks of each generated file, with the definition names of their requests and responses. */
export function precompiledGroups (): Map<string, Array<{ hook: string, request: string, response: string }>> {
  const groups = new Map<string, Array<{ hook: string, request: string, response: string }>>()
  for (const def of groupVersion.hooks) {
    const names = capiHooks.find(h => h.hook === def.hook)
    if (!names) throw new Error(`Cluster API's definitions have no hook ${def.hook}`)
    const file = decodersFile(def.meta.tags[0] ?? def.hook)
    groups.set(file, [...groups.get(file) ?? [], names])
  }
  return groups
}

const requireHere = createRequire(import.meta.url)
let targets: WeakMap<TSchema, { file: string, definition: string }> | undefined
const loaded = new Map<string, Readonly<Record<string, rules.Checker>>>()
const checkers = new WeakMap<TSchema, rules.Checker>()

/** Whether a schema has a generated decoder: it is one of Cluster API's hook requests or responses, the very object. */
export function isPrecompiled (schema: TSchema): boolean {
  return targetOf(schema) !== undefined
}

/** The generated decoder of a hook's request or response schema (see isPrecompiled); its file is loaded once. */
export function precompiledDecoder (schema: TSchema): rules.Checker | undefined {
  const known = checkers.get(schema)
  if (known) return known
  const target = targetOf(schema)
  if (!target) return undefined
  let decoders = loaded.get(target.file)
  if (!decoders) {
    decoders = (requireHere(target.file) as DecodersModule)(rules)
    loaded.set(target.file, decoders)
  }
  const checker = decoders[target.definition]
  if (checker) checkers.set(schema, checker)
  return checker
}

function targetOf (schema: TSchema): { file: string, definition: string } | undefined {
  if (!targets) {
    targets = new WeakMap()
    for (const [file, hooks] of precompiledGroups()) {
      for (const { request, response } of hooks) {
        for (const definition of [request, response]) targets.set(definitionSchema(definition), { file, definition })
      }
    }
  }
  return targets.get(schema)
}
