// The oidc auth provider, the one client-go still ships: the id-token until it expires, then a new one from the
// issuer's token endpoint for the refresh-token. client-go writes refreshed tokens back into the kubeconfig; we keep
// them in memory and leave the file alone.
import { readFileSync } from 'node:fs'
import type { Dispatcher } from 'undici'
import { Agent, request, type RequestOptions } from '../shims/undici.js'
import type { Fresh } from './credential-types.js'
import { readProblem } from './manifests.js'

// client-go's expiryDelta: a token this close to its exp counts as expired (clock skew).
const EXPIRY_MARGIN_MS = 10_000
const ISSUER_TIMEOUT_MS = 30_000

/** The auth-provider's config map: id-token, refresh-token, idp-issuer-url, client-id, client-secret, idp CA. */
export function oidc (config: Record<string, string>): () => Promise<Fresh> {
  let idToken = config['id-token'] ?? ''
  let refreshToken = config['refresh-token'] ?? ''
  const issuer = config['idp-issuer-url'] ?? ''
  const clientId = config['client-id'] ?? ''
  const ca = issuerCa(config)
  return async () => {
    const expires = idToken ? jwtExpiry(idToken) - EXPIRY_MARGIN_MS : 0
    if (Date.now() < expires) return bearer(idToken, expires)
    if (!refreshToken || !issuer || !clientId) {
      throw new Error(`oidc: the id-token is ${idToken ? 'expired' : 'missing'} and refreshing it needs refresh-token, idp-issuer-url and client-id; log in again`)
    }
    const secret = config['client-secret']
    const tokens = await refresh(issuer, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, ...(secret ? { client_secret: secret } : {}) }, ca)
    idToken = tokens.idToken
    refreshToken = tokens.refreshToken ?? refreshToken
    return bearer(idToken, jwtExpiry(idToken) - EXPIRY_MARGIN_MS)
  }
}

const bearer = (token: string, expires: number): Fresh => ({ credentials: { headers: { authorization: `Bearer ${token}` } }, expires })

/** The exp claim of a JWT in ms; none counts as expired, as in client-go. The signature is the API server's business. */
function jwtExpiry (jwt: string): number {
  const payload = jwt.split('.')
  let claims: { exp?: unknown } | null = null
  try {
    if (payload.length === 3) claims = JSON.parse(Buffer.from(payload[1] ?? '', 'base64url').toString('utf8'))
  } catch {}
  if (!claims || typeof claims !== 'object') throw new Error('oidc: the id-token is not a JWT')
  return typeof claims.exp === 'number' ? claims.exp * 1000 : 0
}

function issuerCa (config: Record<string, string>): Buffer | undefined {
  const data = config['idp-certificate-authority-data']
  if (data) return Buffer.from(data, 'base64')
  const file = config['idp-certificate-authority']
  if (!file) return undefined
  try {
    return readFileSync(file)
  } catch (err) {
    throw new Error(`oidc: idp-certificate-authority ${file}: ${readProblem(err)}`)
  }
}

/** OpenID discovery for the token endpoint, then the refresh_token grant. */
async function refresh (issuer: string, form: Record<string, string>, ca: Buffer | undefined): Promise<{ idToken: string, refreshToken?: string }> {
  const dispatcher = new Agent(ca ? { connect: { ca } } : {})
  try {
    const discovery = await askIssuer(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, {}, dispatcher)
    const endpoint = discovery['token_endpoint']
    if (typeof endpoint !== 'string' || !endpoint) throw new Error(`oidc: the discovery document of ${issuer} has no token_endpoint`)
    const body = new URLSearchParams(form).toString()
    const tokens = await askIssuer(endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }, dispatcher)
    const idToken = tokens['id_token']
    if (typeof idToken !== 'string' || !idToken) throw new Error(`oidc: ${endpoint} returned no id_token (was the openid scope asked for at login?)`)
    const refreshToken = tokens['refresh_token']
    return { idToken, ...(typeof refreshToken === 'string' && refreshToken ? { refreshToken } : {}) }
  } finally {
    await dispatcher.close()
  }
}

async function askIssuer (url: string, options: Partial<RequestOptions>, dispatcher: Dispatcher): Promise<Record<string, unknown>> {
  let status: number
  let text: string
  try {
    const res = await request(dispatcher, new URL(url), { method: 'GET', ...options, signal: AbortSignal.timeout(ISSUER_TIMEOUT_MS) })
    status = res.statusCode
    text = await res.body.text()
  } catch (err) {
    throw new Error(`oidc: ${url}: ${(err as Error).message}`)
  }
  if (status !== 200) throw new Error(`oidc: ${url} answered ${status}: ${text.replace(/\s+/g, ' ').trim().slice(0, 200)}`)
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {}
  throw new Error(`oidc: ${url} answered with no JSON object`)
}
