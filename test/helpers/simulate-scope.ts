// Scopes of one reconcile for the unit tests of simulate's Cluster API functions: the example ClusterClass's
// blueprint, a current state built object by object, and a hook caller answering from a script.
import { fileURLToPath } from 'node:url'
import type { HookDefinition } from '../../src/api/hooks/define.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { getBlueprint } from '../../src/simulate/blueprint.js'
import { resolveInputs } from '../../src/simulate/inputs.js'
import type { HookContext } from '../../src/simulate/lifecycle-hooks.js'
import type { Stored, Unstructured, StringMap } from '../../src/simulate/objects.js'
import { type ClusterState, HookResponseTracker, type Scope, UpgradeTracker, type WorkerState } from '../../src/simulate/scope.js'
import type { HookCaller } from '../../src/simulate/timeline.js'
import type { UpgradeContext } from '../../src/simulate/upgrade.js'
import type { Cluster } from '../../src/api/hooks/v1alpha1/types.generated.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))

/** The example's Cluster, ClusterClass and templates, resolved. */
export async function exampleInputs (): Promise<ReturnType<typeof resolveInputs>> {
  const objects = [...await readDocuments(`${EXAMPLE}cluster.yaml`), ...await readDocuments(`${EXAMPLE}clusterclass.yaml`), ...await readDocuments(`${EXAMPLE}templates.yaml`)]
  return resolveInputs(objects)
}

/** A scope over the example: the Cluster at `version`, the current objects given. */
export async function exampleScope (current: Partial<Omit<ClusterState, 'cluster'>> & { cluster?: (c: Stored<Cluster, 'namespaced'>) => void } = {}, version = 'v1.35.0'): Promise<Scope> {
  const inputs = await exampleInputs()
  const cluster = structuredClone(inputs.cluster)
  if (cluster.spec?.topology) cluster.spec.topology.version = version
  current.cluster?.(cluster)
  return {
    blueprint: { ...getBlueprint(inputs, 'default/loop'), topology: cluster.spec?.topology ?? {} },
    current: { cluster, controlPlane: current.controlPlane ?? {}, machineDeployments: current.machineDeployments ?? new Map(), machinePools: current.machinePools ?? new Map(), ...(current.infrastructureCluster ? { infrastructureCluster: current.infrastructureCluster } : {}) },
    upgradeTracker: new UpgradeTracker(),
    hookResponses: new HookResponseTracker()
  }
}

/** A KubeadmControlPlane at a spec version, and a status version when its machines report one. */
export function controlPlaneAt (spec: string, status?: string): Unstructured {
  return { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', metadata: { name: 'loop-cp', namespace: 'default' }, spec: { version: spec }, ...(status ? { status: { version: status } } : {}) }
}

/** A MachineDeployment of the example's topology md-0 at a version. */
export function machineDeploymentAt (version: string, name = 'loop-md-0-abcde'): WorkerState {
  return {
    object: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name, namespace: 'default', labels: { 'topology.cluster.x-k8s.io/deployment-name': 'md-0' } }, spec: { template: { spec: { version, bootstrap: { configRef: { name: 'b' } }, infrastructureRef: { name: 'i' } } } } },
    bootstrap: { kind: 'KubeadmConfigTemplate', metadata: { name: 'b' } },
    infrastructure: { kind: 'DevMachineTemplate', metadata: { name: 'i' } }
  }
}

/** One call the scripted caller received. */
export interface ScriptedCall { hook: string, request: Record<string, unknown> }

/** A hook context whose lifecycle hooks answer from `answers` (by hook name; default: go on) and that records every call. */
export function scriptedContext (answers: Record<string, { retryAfterSeconds?: number, message?: string } | undefined> = {}, now = 0): UpgradeContext & { calls: ScriptedCall[], patches: Array<StringMap | undefined> } {
  const calls: ScriptedCall[] = []
  const patches: Array<StringMap | undefined> = []
  const caller: HookCaller = {
    callExtension: async (hook: HookDefinition, _name: string, request: unknown) => {
      calls.push({ hook: hook.hook, request: request as Record<string, unknown> })
      return { status: 'Success', controlPlaneUpgrades: [{ version: 'v1.35.0' }] } as never
    },
    callAll: async (hook: HookDefinition, request: unknown) => {
      calls.push({ hook: hook.hook, request: request as Record<string, unknown> })
      if (hook.hook in answers && answers[hook.hook] === undefined) return undefined
      return { status: 'Success', retryAfterSeconds: 0, ...answers[hook.hook] } as never
    }
  }
  const ctx: HookContext = { caller, now: () => now, hookCache: new Map(), patchCluster: annotations => { patches.push(annotations) } }
  return { ...ctx, planCache: new Map(), calls, patches }
}
