// TLS for every HTTPS server and test: minting a CA and the certificates it issues (certificates.ts), and the one
// certificate watcher that serves files and re-reads them when they change on disk (watcher.ts).
export { type CertificateAuthority, createCertificateAuthority, type LeafOptions, mintSelfSignedServingCertificate, type PemPair, type ServingFiles, writeLoopbackServingCertificate } from './certificates.js'
export { httpsOptions, MIN_TLS_VERSION, type TLSFileOptions, watchCertificates } from './watcher.js'
