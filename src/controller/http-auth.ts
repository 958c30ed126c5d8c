// Authentication and authorization of the controller's secure endpoint, delegated to the Kubernetes API server as
// controller-runtime's filters.WithAuthenticationAndAuthorization and kube-rbac-proxy do: the bearer token goes to a
// TokenReview, the user it names to a SubjectAccessReview of the non-resource path and verb. RBAC then decides who
// may read /metrics or /extensionconfigs (a ClusterRole with nonResourceURLs, see deploy/rbac).
import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from '../http/index.js'
import type { KubeApi } from '../kube/api.js'
import { KubeApiError } from '../kube/errors.js'
import { ExpiringCache } from './expiring-cache.js'

interface ReviewKind { path: string, apiVersion: string, kind: string }

const TOKEN_REVIEW: ReviewKind = { path: '/apis/authentication.k8s.io/v1/tokenreviews', apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview' }
const SUBJECT_ACCESS_REVIEW: ReviewKind = { path: '/apis/authorization.k8s.io/v1/subjectaccessreviews', apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview' }
// controller-runtime gives a review 10 s.
const REVIEW_TIMEOUT_MS = 10_000

/** The user a TokenReview names (authentication.k8s.io/v1 UserInfo). */
interface ReviewedUser {
  username: string
  uid?: string
  groups?: string[]
  extra?: Record<string, string[]>
}

interface TokenReviewStatus { authenticated?: boolean, user?: ReviewedUser }
interface SubjectAccessReviewStatus { allowed?: boolean }

export interface KubernetesAuthOptions {
  /** How long answers are kept: kube-rbac-proxy's 2 min for tokens, the delegating authorizer's 5 min / 30 s. */
  authenticatedTtlMs?: number
  unauthenticatedTtlMs?: number
  allowedTtlMs?: number
  deniedTtlMs?: number
  /** maxEntries bounds each of the two caches (default 4096). */
  maxEntries?: number
  /** now is the clock of the caches (tests move it). */
  now?: () => number
}

/** An onRequest hook: returns when the request may go on, throws an HttpError (401, 403, 500, 503) otherwise. */
export type RequestAuthorizer = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

/** Checks requests with the API server's TokenReviews and SubjectAccessReviews, created through api. */
export function kubernetesAuthorizer (api: Pick<KubeApi, 'create'>, options: KubernetesAuthOptions = {}): RequestAuthorizer {
  const cacheOptions = { maxEntries: options.maxEntries ?? 4096, ...(options.now ? { now: options.now } : {}) }
  const users = new ExpiringCache<ReviewedUser | undefined>(cacheOptions)
  const decisions = new ExpiringCache<boolean>(cacheOptions)
  const authenticatedTtlMs = options.authenticatedTtlMs ?? 120_000
  const unauthenticatedTtlMs = options.unauthenticatedTtlMs ?? 30_000
  const allowedTtlMs = options.allowedTtlMs ?? 300_000
  const deniedTtlMs = options.deniedTtlMs ?? 30_000

  const authenticate = (token: string) => users.get(
    createHash('sha256').update(token).digest('hex'), // the hash, not the token, stays in memory
    async () => {
      const status = await review<TokenReviewStatus>(api, TOKEN_REVIEW, { token })
      return status.authenticated === true && typeof status.user?.username === 'string' ? status.user : undefined
    },
    user => user ? authenticatedTtlMs : unauthenticatedTtlMs
  )

  const authorize = (user: ReviewedUser, path: string, verb: string) => {
    const spec = {
      user: user.username,
      ...(user.uid ? { uid: user.uid } : {}),
      ...(user.groups ? { groups: user.groups } : {}),
      ...(user.extra ? { extra: user.extra } : {}),
      nonResourceAttributes: { path, verb }
    }
    return decisions.get(
      JSON.stringify(spec),
      async () => (await review<SubjectAccessReviewStatus>(api, SUBJECT_ACCESS_REVIEW, spec)).allowed === true,
      allowed => allowed ? allowedTtlMs : deniedTtlMs
    )
  }

  return async (request, reply) => {
    const token = bearerToken(request.headers.authorization)
    if (token === undefined) {
      reply.header('www-authenticate', 'Bearer')
      throw new HttpError(401, 'Unauthorized', 'Unauthorized: send a Kubernetes bearer token (Authorization: Bearer <token>)')
    }
    const user = await authenticate(token)
    if (!user) {
      reply.header('www-authenticate', 'Bearer error="invalid_token"')
      throw new HttpError(401, 'Unauthorized', 'Unauthorized: the bearer token is not valid')
    }
    // As controller-runtime: the verb is the method in lower case, the path the decoded URL path.
    const path = decodedPath(request.url)
    const verb = request.method.toLowerCase()
    if (!await authorize(user, path, verb)) {
      throw new HttpError(403, 'Forbidden', `forbidden: User "${user.username}" cannot ${verb} path "${path}"`)
    }
  }
}

/** Creates a review and returns its status. An API server that cannot answer is a 503, one that refuses a 500. */
async function review<S> (api: Pick<KubeApi, 'create'>, type: ReviewKind, spec: object): Promise<Partial<S>> {
  try {
    const answer = await api.create<{ status?: S }>(type.path, { apiVersion: type.apiVersion, kind: type.kind, spec }, { timeoutMs: REVIEW_TIMEOUT_MS })
    return answer?.status ?? {}
  } catch (err) {
    if (err instanceof KubeApiError && err.code < 500) {
      throw new HttpError(500, 'InternalError', `cannot check the request: the Kubernetes API server refused the controller's ${type.kind} (${err.reason}); see the controller's log`, { cause: err })
    }
    throw new HttpError(503, 'ServiceUnavailable', `cannot check the request: the Kubernetes API server did not answer the controller's ${type.kind}; try again`, { cause: err })
  }
}

function bearerToken (authorization: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1]
}

function decodedPath (url: string): string {
  const raw = url.split('?')[0] ?? '/'
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}
