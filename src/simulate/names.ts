// The names Cluster API gives the objects of a topology (internal/topology/names): a prefix and five random
// characters (the API server's SimpleNameGenerator), or the ClusterClass's naming template, a Go template over the
// Cluster's name, the topology's name and `.random`, with missing keys an error. Random here is seeded: the same
// Cluster gets the same names in every run.
import { isBudgetExceeded } from '../budget/index.js'
import { parseTemplate } from '../gotemplate/index.js'
import type { RandomSource } from './seeded.js'

const MAX_NAME_LENGTH = 63
const MAX_GENERATED_NAME_LENGTH = MAX_NAME_LENGTH - 5
/** SimpleNameGenerator: the base (cut to 58 characters) and five random characters. */
export function simpleName (base: string, random: string): string {
  return `${base.slice(0, MAX_GENERATED_NAME_LENGTH)}${random}`
}

/** A naming template that Cluster API cannot render: it fails the reconcile with this message. */
export class NamingTemplateError extends Error {}

/**
 * templateGenerator.GenerateName: the Go template rendered over `{cluster: {name}, random, ...data}` with
 * missingkey=error; a name longer than 63 characters is cut to 58 and given five more random characters.
 */
export function templateName (template: string, clusterName: string, data: Record<string, unknown>, random: RandomSource, key: string): string {
  let parsed
  try {
    parsed = parseTemplate('template name generator', template, { missingKey: 'error' })
  } catch (err) {
    if (isBudgetExceeded(err)) throw err
    throw new NamingTemplateError(`parsing template ${JSON.stringify(template)}: ${(err as Error).message}`)
  }
  let name: string
  try {
    name = parsed.execute({ ...data, cluster: { name: clusterName }, random: random(key) })
  } catch (err) {
    if (isBudgetExceeded(err)) throw err
    throw new NamingTemplateError(`rendering template: ${(err as Error).message}`)
  }
  return name.length > MAX_NAME_LENGTH ? name.slice(0, MAX_GENERATED_NAME_LENGTH) + random(`${key}/trimmed`) : name
}

/** The default naming templates of Cluster API v1.14 (desired_state.go). */
export const DEFAULT_NAMING = {
  infrastructureCluster: '{{ .cluster.name }}-{{ .random }}',
  controlPlane: '{{ .cluster.name }}-{{ .random }}',
  machineDeployment: '{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}',
  machinePool: '{{ .cluster.name }}-{{ .machinePool.topologyName }}-{{ .random }}'
} as const
