// The Kubernetes plumbing the controller and the CLI stand on: a small REST client (api.ts) over kubeconfigs read
// as kubectl reads them (kubeconfig.ts; credentials.ts, exec-plugin.ts and oidc.ts authenticate), the API server's
// errors (errors.ts), list+watch caches (reflector.ts), Lease-based leader election (leader-election.ts) and
// YAML/JSON manifests (manifests.ts). It knows paths and objects, not kinds.
export { KubeApi, type KubeApiOptions, type KubeList, type KubeRequestOptions, type KubeWatchEvent, type KubeWatchOptions } from './api.js'
export { KubeApiError, type KubeStatus } from './errors.js'
export type { KubeCredentials } from './credential-types.js'
export type { KubeConfigLike, KubeconfigSelection, KubeConnection } from './kubeconfig.js'
export { LeaderElector, type LeaderElectorOptions } from './leader-election.js'
export type { Staleness } from './reflector.js'
