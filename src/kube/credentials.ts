// How a kubeconfig user authenticates a request, in client-go's order: token, tokenFile, basic auth, an exec
// plugin (exec-plugin.ts), the oidc auth provider (oidc.ts). Static client certificates stay with the connection
// (kubeconfig.ts); one from an exec plugin comes with the credentials, as it may change at run time.
import { readFileSync } from 'node:fs'
import { type ExecCluster, type ExecConfig, execPlugin } from './exec-plugin.js'
import { readProblem } from './manifests.js'
import { oidc } from './oidc.js'
import type { Fresh, KubeCredentials } from './credential-types.js'

/** The credentials of one user; invalidate drops ones the API server rejected, so the next get fetches anew. */
interface CredentialSource {
  get: () => Promise<KubeCredentials>
  invalidate?: (rejected: KubeCredentials) => void
}

export interface UserEntry {
  token?: string
  tokenFile?: string
  username?: string
  password?: string
  'client-certificate'?: string
  'client-certificate-data'?: string
  'client-key'?: string
  'client-key-data'?: string
  exec?: ExecConfig
  'auth-provider'?: { name?: string, config?: Record<string, string> | null }
}

// client-go's own messages for the auth providers it removed (there on several lines).
const REMOVED_PROVIDERS: Readonly<Record<string, string>> = {
  gcp: 'The gcp auth plugin has been removed. Please use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead. ' +
    'See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details',
  azure: 'The azure auth plugin has been removed. Please use the https://github.com/Azure/kubelogin kubectl/client-go credential plugin instead. ' +
    'See https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins for further details'
}

/**
 * The credentials of a user entry; resolve turns its paths (tokenFile, an exec command with a slash) into ones
 * relative to the file that defined the user. Configuration errors throw here, when the kubeconfig is loaded.
 */
export function credentialSource (user: UserEntry, resolve: (path: string) => string, cluster: ExecCluster): CredentialSource {
  if (user.token) return fixed({ authorization: `Bearer ${user.token}` })
  if (user.tokenFile) return tokenFile(resolve(user.tokenFile))
  if (user.username || user.password) {
    return fixed({ authorization: `Basic ${Buffer.from(`${user.username ?? ''}:${user.password ?? ''}`).toString('base64')}` })
  }
  if (user.exec) return cached(execPlugin(user.exec, resolve, cluster))
  const provider = user['auth-provider']
  if (provider) {
    const name = provider.name ?? ''
    if (name === 'oidc') return cached(oidc(provider.config ?? {}))
    throw new Error(REMOVED_PROVIDERS[name] ?? `auth-provider "${name}" is not supported; use an exec credential plugin`)
  }
  return fixed({})
}

/** A bearer token read from a file: again each minute (projected service account tokens rotate) and after a 401. */
export function tokenFile (path: string): CredentialSource {
  return cached(async () => {
    let token: string
    try {
      token = readFileSync(path, 'utf8').trim()
    } catch (err) {
      throw new Error(`tokenFile ${path}: ${readProblem(err)}`)
    }
    if (!token) throw new Error(`tokenFile ${path} is empty`)
    return { credentials: { headers: { authorization: `Bearer ${token}` } }, expires: Date.now() + 60_000 }
  })
}

function fixed (headers: Record<string, string>): CredentialSource {
  const credentials = { headers }
  return { get: async () => credentials }
}

/** Reuses what fetch gives until it expires, with one fetch at a time however many requests wait for it. */
function cached (fetch: () => Promise<Fresh>): CredentialSource {
  let current: Fresh | undefined
  let pending: Promise<KubeCredentials> | undefined
  return {
    get: async () => {
      if (current && Date.now() < current.expires) return current.credentials
      pending ??= fetch()
        .then(fresh => { current = fresh; return fresh.credentials })
        .finally(() => { pending = undefined })
      return pending
    },
    // Only the rejected credentials: after concurrent 401s, ones fetched since are kept.
    invalidate: rejected => { if (current?.credentials === rejected) current = undefined }
  }
}
