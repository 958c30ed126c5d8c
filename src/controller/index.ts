// The ExtensionConfig controller: keeps a registry of every extension's handlers from ExtensionConfigs in a
// cluster or a directory, writes what it discovers into their status, and serves it.
export { Controller, type ControllerMode, type ControllerOptions, type ExtensionConfigReport } from './controller.js'
export { FileSource, type FileSourceOptions, type RejectedManifest } from './file-source.js'
export { KubernetesSource, type KubernetesSourceOptions } from './kubernetes-source.js'
export type { ExtensionConfigSource, SourceListener } from './source.js'
export { runController, type RunControllerOptions, type RunningController } from './run.js'
export { KubeApi, KubeApiError, type KubeApiOptions, type KubeConfigLike, type KubeconfigSelection, type KubeConnection, type KubeCredentials } from '../kube/index.js'
export { DiscoveryError } from './reconciler.js'
export { type CrdOwnership, crdOwnership, ForeignCrdError, readCrdOwnership } from './crd-owner.js'
