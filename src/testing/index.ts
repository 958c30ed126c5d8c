/**
 * What tests of extensions and controllers need: a scripted runtime client ({@link FakeRuntimeClient}), certificates
 * for local HTTPS, a realistic sample request of every hook ({@link sampleRequest}), an extension's handlers called in
 * process ({@link createInProcessExtension}), {@link simulate}: a Cluster's life as Cluster API drives it, against
 * your handlers, in milliseconds, and the reference extension's handlers ({@link referenceHandlers}) to build on.
 *
 * @packageDocumentation
 */
export { FakeRuntimeClient, type FakeAnswer, type FakeCall, type FakeHandlerOptions } from './fake-runtime-client.js'
export { createCertificateAuthority, type CertificateAuthority, type LeafOptions, type PemPair, type ServingFiles, writeLoopbackServingCertificate } from '../tls/index.js'
export { sampleRequest, sampleRequests } from '../api/hooks/v1alpha1/samples.js'
export { createInProcessExtension, type InProcessCallOptions, type InProcessExtension } from '../server/index.js'
export { referenceHandlers, type ReferenceExtensionOptions } from '../reference-extension/index.js'
export type { InPlaceOptions } from '../reference-extension/in-place.js'
export { simulate, SimulationInputError, type SimulatedTemplate, type SimulateOptions, type SimulationResult, type SimulationState, type TimelineEntry, type Stored, type Unstructured, type LiveState, type ControlPlaneState, type MachineObjects, type WorkerState } from '../simulate/index.js'
export type { StoredName, StoredNamespace } from '../api/kube-object.js'
