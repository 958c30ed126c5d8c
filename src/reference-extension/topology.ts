// Topology mutation hooks of the reference extension, driven by one variable, referenceAnnotation:
// - DiscoverVariables defines it: an optional string (default "reference-extension").
// - GeneratePatches sets the annotation runtime-sdk.x-k8s.io/patched-by=<value> on every template
//   (a JSON Patch, RFC 6902, base64 on the wire); a template-level value overrides the global one.
// - ValidateTopology rejects a topology where the variable is set but not a non-empty string, or where a
//   variable named in the setting requiredVariables (comma separated) is missing.
import { DiscoverVariables, GeneratePatches, ValidateTopology } from '../api/hooks/v1alpha1/index.js'
import { defineHandler, type ExtensionHandler } from '../server/types.js'
import { HookError } from '../server/errors.js'

export const VARIABLE = 'referenceAnnotation'
export const ANNOTATION = 'runtime-sdk.x-k8s.io/patched-by'
const DEFAULT_VALUE = 'reference-extension'

type Variables = ReadonlyArray<{ name: string, value?: unknown }> | null | undefined

function lookup (variables: Variables, name: string): { found: boolean, value?: unknown } {
  const variable = (variables ?? []).find(v => v.name === name)
  return variable ? { found: true, value: variable.value } : { found: false }
}

/** The JSON Patch that sets the annotation, whether or not metadata and annotations already exist. */
export function annotationPatch (object: unknown, value: string): Array<{ op: 'add', path: string, value: unknown }> {
  const metadata = (object as { metadata?: { annotations?: unknown } } | null)?.metadata
  if (metadata === undefined || metadata === null || typeof metadata !== 'object') return [{ op: 'add', path: '/metadata', value: { annotations: { [ANNOTATION]: value } } }]
  if (metadata.annotations === undefined || metadata.annotations === null) return [{ op: 'add', path: '/metadata/annotations', value: { [ANNOTATION]: value } }]
  return [{ op: 'add', path: `/metadata/annotations/${ANNOTATION.replace(/~/g, '~0').replace(/\//g, '~1')}`, value }]
}

const generatePatches = defineHandler({
  hook: GeneratePatches,
  name: 'generate-patches',
  handler: (request) => {
    const global = lookup(request.variables, VARIABLE)
    const items = (request.items ?? []).filter(item => item.object !== null && typeof item.object === 'object').map(item => {
      const local = lookup(item.variables, VARIABLE)
      const value = local.found ? local.value : global.found ? global.value : DEFAULT_VALUE
      if (typeof value !== 'string') throw new HookError(`variable ${VARIABLE} must be a string`)
      return { uid: item.uid, patchType: 'JSONPatch' as const, patch: Buffer.from(JSON.stringify(annotationPatch(item.object, value))).toString('base64') }
    })
    return { status: 'Success' as const, items }
  }
})

const validateTopology = defineHandler({
  hook: ValidateTopology,
  name: 'validate-topology',
  handler: (request) => {
    const problems: string[] = []
    const required = (request.settings?.['requiredVariables'] ?? '').split(',').map(s => s.trim()).filter(Boolean)
    for (const name of required) if (!lookup(request.variables, name).found) problems.push(`required variable ${name} is not set`)
    const scopes: Array<[string, Variables]> = [['', request.variables], ...(request.items ?? []).map((item, i): [string, Variables] => [`items[${i}] `, item?.variables])]
    for (const [where, variables] of scopes) {
      const v = lookup(variables, VARIABLE)
      if (v.found && (typeof v.value !== 'string' || v.value === '')) problems.push(`${where}variable ${VARIABLE} must be a non-empty string`)
    }
    return problems.length > 0 ? { status: 'Failure' as const, message: problems.join('; ') } : { status: 'Success' as const }
  }
})

const discoverVariables = defineHandler({
  hook: DiscoverVariables,
  name: 'discover-variables',
  handler: () => ({
    status: 'Success' as const,
    variables: [{
      name: VARIABLE,
      required: false,
      schema: {
        openAPIV3Schema: {
          type: 'string' as const,
          description: `The value of the ${ANNOTATION} annotation the reference extension sets on every template.`,
          default: DEFAULT_VALUE,
          example: 'team-a',
          maxLength: 256
        }
      }
    }]
  })
})

export function topologyHandlers (): ExtensionHandler[] {
  return [generatePatches, validateTopology, discoverVariables]
}
