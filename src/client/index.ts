// The runtime client: discover extensions and call their handlers with Cluster API's semantics.
export type { CallOptions, CallResult, HandlerOutcome, HandlerOutcomeKind, KubeObject, RuntimeClient } from './runtime-client.js'
export { aggregateResponses, HttpRuntimeClient, type NamespaceLabelsResolver, RuntimeCallError, type RuntimeClientOptions, stableJson } from './client.js'
export type { BackoffOptions } from '../backoff/backoff.js'
export { REQUEST_DURATION_BUCKETS, RuntimeClientMetrics } from './metrics.js'
export { AgentPool, type AgentPoolOptions, type ClientCertificate, hostLabel, loadCABundle, type ResolveUrl, TransportError, urlForExtension } from './transport.js'
export { extensionConfigForUrl, loadExtensionConfig, parseLabels, readDocuments, readExtensionConfigs, readObject } from './files.js'
