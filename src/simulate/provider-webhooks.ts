// The defaulting webhooks of Cluster API's own providers that change what the topology controller writes, run by the
// simulation's API server before it validates (as mutating admission runs): the KubeadmControlPlane webhook
// (controlplane/kubeadm/webhooks/admission, Default).
import { isObject, type KubeDocument } from './objects.js'

/** A defaulting webhook: changes the object in place. */
export type Defaulter = (object: KubeDocument) => void

const object = (parent: Record<string, unknown>, key: string): Record<string, unknown> => {
  if (!isObject(parent[key])) parent[key] = {}
  return parent[key] as Record<string, unknown>
}

/** KubeadmControlPlane: one replica unless set, a `v` before the version, the RollingUpdate strategy with maxSurge 1 unless set. */
const kubeadmControlPlane: Defaulter = (kcp) => {
  const spec = object(kcp as Record<string, unknown>, 'spec')
  spec['replicas'] ??= 1
  if (typeof spec['version'] === 'string' && !spec['version'].startsWith('v')) spec['version'] = `v${spec['version']}`
  const strategy = object(object(spec, 'rollout'), 'strategy')
  strategy['type'] = 'RollingUpdate'
  const rollingUpdate = object(strategy, 'rollingUpdate')
  rollingUpdate['maxSurge'] ??= 1
}

const DEFAULTERS = new Map<string, Defaulter>([
  ['controlplane.cluster.x-k8s.io/v1beta2 KubeadmControlPlane', kubeadmControlPlane]
])

/** The defaulting webhook of the object's kind, when Cluster API's providers have one that matters here. */
export function providerWebhook (o: KubeDocument): Defaulter | undefined {
  return DEFAULTERS.get(`${String(o.apiVersion)} ${String(o.kind)}`)
}
