/**
 * The ExtensionConfig controller: keeps a registry of every extension's handlers from ExtensionConfigs in a cluster
 * or a directory, writes what it discovers into their status, and serves it ({@link runController} assembles one);
 * with the small Kubernetes client and leader election it runs on.
 *
 * @packageDocumentation
 */
export { Controller, type ControllerLogger, type ControllerMode, type ControllerOptions, type ExtensionConfigReport } from './controller.js'
export type { ControllerMetrics } from './metrics.js'
export type { ReconcileOutcome } from './reconciler.js'
export type { ControllerHttpOptions } from './http-serving.js'
export { FileSource, type FileSourceOptions, type RejectedManifest } from './file-source.js'
export { KubernetesSource, type KubernetesSourceOptions } from './kubernetes-source.js'
export type { ChangeKind, ExtensionConfigSource, SecretData, SourceListener } from './source.js'
export { runController, type RunControllerOptions, type RunningController } from './run.js'
export {
  KubeApi, KubeApiError, type KubeApiOptions, type KubeConfigLike, type KubeconfigSelection, type KubeConnection, type KubeCredentials, type KubeList,
  type KubeRequestOptions, type KubeStatus, type KubeWatchEvent, type KubeWatchOptions, LeaderElector, type LeaderElectorOptions, type Staleness
} from '../kube/index.js'
export { DiscoveryError } from './reconciler.js'
export { type CrdOwnership, crdOwnership, ForeignCrdError, readCrdOwnership } from './crd-owner.js'
