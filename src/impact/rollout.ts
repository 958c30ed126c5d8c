// What Cluster API v1.14 does with a change of the desired objects (from its code: reconcile_state.go's
// reconcileReferencedTemplate, KCP's UpToDate and PrepareKubeadmConfigsForDiff; how far to trust it: docs/before-you-upgrade.md):
// a template a MachineDeployment or the control plane references is rotated when its spec changes (a new name, so a
// new MachineSet, so every Machine replaced) and patched in place when only its labels or annotations change; the
// KubeadmControlPlane replaces every Machine when its kubeadmConfigSpec changes (but for what KCP ignores in its
// comparison) and updates them in place for machine metadata, deletion timeouts, taints and readiness gates; the
// infrastructure cluster and MachinePools' objects are patched in place.
import { type ChangedField, changedFields, describeObject, type Unstructured, templateRotation } from '../simulate/index.js'
import { jsonEqual } from '../topology/json.js'

/**
 * What a change does: its Machines replaced (rollout), updated in place, nothing, or the object refused by the API
 * server when the topology controller writes it (refused: nothing changes, and the Cluster's topology stops
 * reconciling until the extension changes).
 */
export type RolloutEffect = 'rollout' | 'in-place' | 'none' | 'refused'

/** One changed field and what Cluster API does about it. */
export interface FieldChange extends ChangedField {
  /** object is `Kind name` of the object or template changed (path, before and after: the field, with the extension as registered and with the candidate). */
  object: string
  /** effect is what the change does to the Machines. */
  effect: RolloutEffect
  /** why says, in Cluster API's terms, what happens. */
  why: string
}

/**
 * Paths of a KubeadmControlPlane's spec that KCP ignores when it compares a Machine with it
 * (PrepareKubeadmConfigsForDiff): its initConfiguration too, since a Machine's desired KubeadmConfig joins the
 * control plane and the first Machine's own init configuration is compared as a join.
 */
const KCP_IGNORED = ['/kubeadmConfigSpec/clusterConfiguration/controlPlaneEndpoint', '/kubeadmConfigSpec/clusterConfiguration/dns', '/kubeadmConfigSpec/joinConfiguration/discovery', '/kubeadmConfigSpec/initConfiguration', '/kubeadmConfigSpec/joinConfiguration/timeouts/controlPlaneComponentHealthCheckSeconds']
/** Paths of a KubeadmControlPlane's spec KCP propagates to its Machines in place. */
const KCP_IN_PLACE = ['/machineTemplate/metadata', '/machineTemplate/spec/deletion', '/machineTemplate/spec/taints', '/machineTemplate/spec/readinessGates']
/** Paths of a KubeadmControlPlane's spec that roll nothing. */
const KCP_NOTHING = ['/remediation', '/machineNaming', '/rollout/strategy', '/replicas']

const under = (path: string, prefixes: readonly string[]) => prefixes.some(p => path === p || path.startsWith(`${p}/`))
const describe = (o: Unstructured | undefined) => describeObject(o, { namespace: false })

/** The fields that change, an absent value as an empty object. */
const changes = (before: unknown, after: unknown): ChangedField[] => changedFields(before ?? {}, after ?? {})

/**
 * reconcileReferencedTemplate (templateRotation): a referenced template whose spec changes is rotated (the Machines
 * that use it roll out); labels and annotations are patched in place.
 */
export function templateChanges (before: Unstructured | undefined, after: Unstructured | undefined, owner: string): FieldChange[] {
  const object = describe(after ?? before)
  const effect: RolloutEffect = templateRotation(before ?? {}, after ?? {}) === 'rotate' ? 'rollout' : 'none'
  const spec = changes(before?.spec, after?.spec).map(c => ({ ...c, path: `/spec${c.path}`, object, effect, why: `the template's spec changes: Cluster API rotates it and ${owner} replaces its Machines` }))
  const metadata = (['labels', 'annotations'] as const).flatMap(key => changes(before?.metadata?.[key], after?.metadata?.[key]).map(c => ({ ...c, path: `/metadata/${key}${c.path}`, object, effect: 'none' as const, why: 'only the template\'s metadata changes: patched in place' })))
  return [...spec, ...metadata]
}

/** A KubeadmControlPlane's changes, as KCP compares its Machines with it (UpToDate) and syncs them in place. */
export function controlPlaneChanges (before: Unstructured | undefined, after: Unstructured | undefined): FieldChange[] {
  const object = describe(after ?? before)
  return [
    ...changes(before?.spec, after?.spec).map(c => {
      const effect: RolloutEffect = under(c.path, KCP_IGNORED) || under(c.path, KCP_NOTHING) ? 'none' : under(c.path, KCP_IN_PLACE) ? 'in-place' : 'rollout'
      const why = effect === 'rollout'
        ? 'every control plane Machine no longer matches the KubeadmControlPlane: KCP replaces them one at a time'
        : effect === 'in-place' ? 'KCP updates its Machines in place' : under(c.path, KCP_IGNORED) ? 'KCP ignores it when it compares its Machines (CoreDNS, the first Machine\'s kubeadm init and future joins only)' : 'no Machine changes'
      return { ...c, path: `/spec${c.path}`, object, effect, why }
    }),
    ...(['labels', 'annotations'] as const).flatMap(key => changes(before?.metadata?.[key], after?.metadata?.[key]).map(c => ({ ...c, path: `/metadata/${key}${c.path}`, object, effect: 'none' as const, why: 'the KubeadmControlPlane\'s own metadata: no Machine changes' })))
  ]
}

/** An object patched in place whose Machines, if any, are its provider's business (infrastructure cluster, MachinePool objects). */
export function inPlaceObjectChanges (before: Unstructured | undefined, after: Unstructured | undefined, why: string): FieldChange[] {
  const object = describe(after ?? before)
  if (jsonEqual({ spec: before?.spec, labels: before?.metadata?.labels, annotations: before?.metadata?.annotations }, { spec: after?.spec, labels: after?.metadata?.labels, annotations: after?.metadata?.annotations })) return []
  return [
    ...changes(before?.spec, after?.spec).map(c => ({ ...c, path: `/spec${c.path}`, object, effect: 'none' as const, why })),
    ...(['labels', 'annotations'] as const).flatMap(key => changes(before?.metadata?.[key], after?.metadata?.[key]).map(c => ({ ...c, path: `/metadata/${key}${c.path}`, object, effect: 'none' as const, why: 'patched in place' })))
  ]
}

/** The strongest effect of a list of changes. */
export function strongest (list: readonly FieldChange[]): RolloutEffect {
  for (const effect of ['refused', 'rollout', 'in-place'] as const) if (list.some(c => c.effect === effect)) return effect
  return 'none'
}
