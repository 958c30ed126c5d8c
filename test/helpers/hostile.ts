// Hostile ClusterClasses: examples/simulate's templates under a class whose inline patches a tenant's variable can
// make expensive, for the tests that prove a hostile class costs one line and no more (simulate -f, rollout-impact,
// held, the fuzz). `regex`: a patch enabled by `regexMatch "^(a+)+$" .hostileName`, exponential for a backtracking
// engine when hostileName is forty a's and a '!' (Go answers false at once). `alias`: a patch whose value template
// renders a YAML alias bomb, 9 levels of 10 aliases (Go refuses it: `document contains excessive aliasing`).
// `loop`: an enabledIf that ranges a million times a million (Go would run for hours), `memory`: one that prints a
// million lists (hundreds of MB): what only the per-Cluster budget stops.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseAllDocuments } from 'yaml'
import type { Unstructured } from '../../src/simulate/index.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))

/** The name that makes `^(a+)+$` backtrack exponentially: forty a's and a '!'. */
export const HOSTILE_NAME = 'a'.repeat(40) + '!'

/** A YAML alias bomb: `levels` anchors, each a list of `width` aliases of the one before. */
export function aliasBomb (levels = 9, width = 10): string {
  let text = 'a0: &a0 [lol]\n'
  for (let i = 1; i <= levels; i++) text += `a${i}: &a${i} [${Array(width).fill(`*a${i - 1}`).join(', ')}]\n`
  return text
}

const read = (file: string): Unstructured[] => parseAllDocuments(readFileSync(`${EXAMPLE}${file}`, 'utf8')).map(d => d.toJS() as Unstructured)

/** The worker's KubeadmConfigTemplate, where the hostile patches write. */
const WORKER_BOOTSTRAP = { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', matchResources: { machineDeploymentClass: { names: ['default-worker'] } } }

/** The hostile patches, by kind. */
export const HOSTILE_PATCHES = {
  regex: {
    name: 'hostile-regex',
    enabledIf: '{{ regexMatch "^(a+)+$" .hostileName }}',
    definitions: [{ selector: WORKER_BOOTSTRAP, jsonPatches: [{ op: 'add', path: '/spec/template/spec/postKubeadmCommands', value: ['echo the name is all a'] }] }]
  },
  alias: {
    name: 'hostile-alias',
    definitions: [{ selector: WORKER_BOOTSTRAP, jsonPatches: [{ op: 'add', path: '/spec/template/spec/postKubeadmCommands', valueFrom: { template: aliasBomb() } }] }]
  },
  loop: {
    name: 'hostile-loop',
    enabledIf: '{{ range until 1000000 }}{{ range until 1000000 }}{{ end }}{{ end }}true',
    definitions: [{ selector: WORKER_BOOTSTRAP, jsonPatches: [{ op: 'add', path: '/spec/template/spec/postKubeadmCommands', value: ['echo never'] }] }]
  },
  memory: {
    name: 'hostile-memory',
    enabledIf: '{{ range until 1000000 }}{{ until 100 }}{{ end }}true',
    definitions: [{ selector: WORKER_BOOTSTRAP, jsonPatches: [{ op: 'add', path: '/spec/template/spec/postKubeadmCommands', value: ['echo never'] }] }]
  }
} as const

/**
 * A Cluster (namespace/name), its class (named after the Cluster, with the variable hostileName and the patches
 * asked for) and examples/simulate's templates, in one namespace.
 */
export function hostileObjects (namespace: string, name: string, patches: ReadonlyArray<keyof typeof HOSTILE_PATCHES>, hostileName = HOSTILE_NAME): Unstructured[] {
  const inNamespace = (o: Unstructured): Unstructured => ({ ...o, metadata: { ...o.metadata, namespace } })
  const [cluster] = read('cluster.yaml') as [Unstructured]
  const [clusterClass] = read('clusterclass.yaml') as [Unstructured]
  // The example's upgrade plan and external patch come from the reference extension: left out.
  const { upgrade, patches: external, ...spec } = clusterClass['spec'] as Record<string, unknown>
  return [
    inNamespace({
      ...cluster,
      metadata: { ...cluster.metadata, name },
      spec: { ...cluster['spec'] as object, topology: { ...(cluster['spec'] as { topology: object }).topology, classRef: { name }, variables: [{ name: 'hostileName', value: hostileName }] } }
    }),
    inNamespace({
      ...clusterClass,
      metadata: { ...clusterClass.metadata, name },
      spec: {
        ...spec,
        variables: [{ name: 'hostileName', required: true, schema: { openAPIV3Schema: { type: 'string' } } }],
        ...(patches.length > 0 ? { patches: patches.map(p => HOSTILE_PATCHES[p]) } : {})
      }
    }),
    ...read('templates.yaml').map(inNamespace)
  ]
}
