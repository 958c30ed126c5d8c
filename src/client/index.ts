export { Backoff, type BackoffOptions } from './backoff.js'
export {
  type CallOptions, type CallResult, type HandlerOutcome, type HandlerOutcomeKind, type KubeObject, type NamespaceLabelsResolver,
  RuntimeCallError, RuntimeClient, type RuntimeClientOptions, stableJson
} from './client.js'
export { REQUEST_DURATION_BUCKETS, RuntimeClientMetrics } from './metrics.js'
export { AgentPool, type AgentPoolOptions, type ClientCertificate, hostLabel, loadCABundle, type ResolveUrl, TransportError, urlForExtension } from './transport.js'
export { extensionConfigForUrl, loadExtensionConfig, parseLabels, readDocuments, readExtensionConfigs, readObject } from './files.js'
