// runtime-sdk/testing: what tests of extensions and controllers need: a scripted runtime client, certificates for
// local HTTPS, and a realistic sample request of every hook.
export { FakeRuntimeClient, type FakeAnswer, type FakeCall, type FakeHandlerOptions } from './fake-runtime-client.js'
export { createCertificateAuthority, type CertificateAuthority, type LeafOptions, type PemPair, type ServingFiles, writeLoopbackServingCertificate } from '../tls/index.js'
export { sampleRequest, sampleRequests } from '../api/hooks/v1alpha1/samples.js'
