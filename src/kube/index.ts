// The Kubernetes plumbing the controller and the CLI stand on: a small REST client (api.ts) over a kubeconfig
// (kubeconfig.ts), the API server's errors (errors.ts), list+watch caches (reflector.ts), Lease-based leader
// election (leader-election.ts) and YAML/JSON manifests (manifests.ts). It knows paths and objects, not kinds.
export { KubeApi, type KubeApiOptions } from './api.js'
export { KubeApiError, type KubeStatus } from './errors.js'
export type { KubeConfigLike, KubeConnection } from './kubeconfig.js'
