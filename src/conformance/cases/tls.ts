// TLS: Cluster API calls extensions with TLS 1.2 or newer, trusting the ExtensionConfig's caBundle (or the
// system roots) and checking the certificate against the host of the URL or Service.
import { fail, type CaseVerdict, pass, type ExtensionCaseContext, skip } from '../context.js'
import { LEGACY_CLIENT, probeTls, refusedByTls } from '../tls-probe.js'

const MODERN = new Set(['TLSv1.2', 'TLSv1.3'])

export async function tlsHandshake (ctx: ExtensionCaseContext): Promise<CaseVerdict> {
  const probe = await ctx.tls()
  if (!probe.connected) return fail(`a TLS 1.2+ client could not complete a handshake: ${probe.error}`)
  const facts = { protocol: probe.protocol, cipher: probe.cipher, ...probe.certificate }
  if (!MODERN.has(probe.protocol)) return fail(`negotiated ${probe.protocol}; Cluster API requires TLS 1.2 or newer`, { facts })
  const roots = ctx.target.ca === undefined ? 'the system roots' : 'the CA bundle'
  if (!probe.authorized) return fail(`the certificate chain does not verify against ${roots}: ${probe.authorizationError ?? 'unknown reason'}`, { facts })
  return pass(`negotiated ${probe.protocol} (${probe.cipher}); the certificate chain verifies against ${roots}`, { facts })
}

export async function tlsHostname (ctx: ExtensionCaseContext): Promise<CaseVerdict> {
  const probe = await ctx.tls()
  if (!probe.connected) return skip('no TLS handshake to check (see tls-handshake)')
  const facts = { host: ctx.tlsEndpoint.host, ...probe.certificate }
  if (probe.hostnameError) return fail(`the certificate does not match the host Cluster API connects to: ${probe.hostnameError}`, { facts })
  return pass(`the certificate matches ${ctx.tlsEndpoint.host}`, { facts })
}

export async function tlsLegacyRefused (ctx: ExtensionCaseContext): Promise<CaseVerdict> {
  const probe = await probeTls(ctx.tlsEndpoint, LEGACY_CLIENT)
  if (probe.connected) {
    return fail(`a client limited to TLS 1.0/1.1 negotiated ${probe.protocol} (${probe.cipher}); serve TLS 1.2 or newer only`, { facts: { protocol: probe.protocol, cipher: probe.cipher } })
  }
  if (!refusedByTls(probe)) return skip(`could not reach the server to try: ${probe.error}`)
  return pass('a client limited to TLS 1.0/1.1 is refused', { facts: { refusal: probe.error } })
}
