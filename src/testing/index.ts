// runtime-sdk/testing: what tests of extensions and controllers need: a scripted runtime client, certificates for
// local HTTPS, a realistic sample request of every hook, and an extension's handlers called in process.
export { FakeRuntimeClient, type FakeAnswer, type FakeCall, type FakeHandlerOptions } from './fake-runtime-client.js'
export { createCertificateAuthority, type CertificateAuthority, type LeafOptions, type PemPair, type ServingFiles, writeLoopbackServingCertificate } from '../tls/index.js'
export { sampleRequest, sampleRequests } from '../api/hooks/v1alpha1/samples.js'
export { createInProcessExtension, type InProcessCallOptions, type InProcessExtension } from '../server/index.js'
