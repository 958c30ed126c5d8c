/**
 * The runtime client: discover extensions and call their handlers with Cluster API's semantics
 * ({@link HttpRuntimeClient}), the transport it calls them over, and ExtensionConfigs read from files or made for a URL.
 *
 * @packageDocumentation
 */
// runtime-client.ts is
// the interface, client.ts the HTTPS client (matching, aggregation across handlers), invoke.ts one handler call, wire.ts
// the HTTP exchange and decoding, outcomes.ts what a call came to, transport.ts URLs, TLS and connection pools,
// extension-configs.ts ExtensionConfigs from files, registered-extensions.ts those a management cluster registers,
// errors.ts the errors.
export { ManifestError } from '../kube/errors.js'
export type { CallOptions, CallResult, HandlerOutcome, HandlerOutcomeKind, KubeObject, RuntimeClient } from './runtime-client.js'
export { HttpRuntimeClient, type NamespaceLabelsResolver, type RuntimeClientOptions } from './client.js'
export { RuntimeCallError, TransportError } from './errors.js'
export { aggregateResponses } from './outcomes.js'
export { stableJson } from './wire.js'
export type { BackoffOptions } from '../backoff/backoff.js'
export { REQUEST_DURATION_BUCKETS, RuntimeClientMetrics } from './metrics.js'
export { AgentPool, type AgentPoolOptions, type ClientCertificate, hostLabel, loadCABundle, type ResolveUrl, urlForExtension } from './transport.js'
export { extensionConfigForUrl, loadExtensionConfig, readExtensionConfigs } from './extension-configs.js'
export { registeredExtensions, type RegisteredExtensions, type RegistrationReader, type ListOfItems } from './registered-extensions.js'
