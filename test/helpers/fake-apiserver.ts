// A tiny Kubernetes API server on 127.0.0.1 for the plumbing tests: collections with list (limit/continue),
// newline-delimited watch streams resumable from a resourceVersion, object GET/POST/PUT/DELETE with
// resourceVersion conflicts, PartialObjectMetadata answers, and knobs to misbehave (bookmarks, ERROR
// events, closed streams, failing requests, compaction, going away and coming back on the same port), and answers
// of its own for any path (TokenReviews and SubjectAccessReviews: reviews()).
import { writeFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { join } from 'node:path'

export interface Obj {
  apiVersion?: string
  kind?: string
  metadata: { name: string, namespace?: string, resourceVersion?: string, [k: string]: unknown }
  [k: string]: unknown
}

export interface Logged {
  method: string
  path: string
  query: URLSearchParams
  headers: http.IncomingHttpHeaders
  body?: any
}

interface Watcher {
  collection: string
  res: http.ServerResponse
  metadataOnly: boolean
}

interface Change { rv: number, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: Obj }

export interface FakeApiServerOptions {
  /** Serve HTTPS with this certificate; client certificates are requested and recorded when ca is set. */
  tls?: { cert: string, key: string, ca?: string }
}

/** Answer for a request instead of the normal handling: a status code (Status body), a Status of its own, or nothing to go on. */
export type Interceptor = (req: Logged) => number | { code: number, reason: string, message: string } | undefined

/** The body to answer a request with (201 to a POST, else 200), or undefined for the normal handling. */
export type Answer = (req: Logged) => unknown

/** The user a TokenReview names. */
export interface ReviewedUser { username: string, uid?: string, groups?: string[], extra?: Record<string, string[]> }

/** The spec of a SubjectAccessReview for a non-resource URL. */
export interface AccessReviewSpec extends Omit<ReviewedUser, 'username'> {
  user: string
  nonResourceAttributes: { path: string, verb: string }
}

export interface ReviewRules {
  /** users by bearer token; any other token is not authenticated. */
  users: Record<string, ReviewedUser>
  /** allow decides SubjectAccessReviews (default: nothing is allowed). */
  allow?: (spec: AccessReviewSpec) => boolean
}

export const TOKEN_REVIEWS = '/apis/authentication.k8s.io/v1/tokenreviews'
export const SUBJECT_ACCESS_REVIEWS = '/apis/authorization.k8s.io/v1/subjectaccessreviews'

const status = (code: number, reason: string, message: string) =>
  ({ apiVersion: 'v1', kind: 'Status', status: 'Failure', code, reason, message, metadata: {} })

const key = (o: Obj) => o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name

const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/

export class FakeApiServer {
  readonly requests: Logged[] = []
  readonly clientCertificates: string[] = []
  /** Answer requests with a status code while it returns one. */
  intercept: Interceptor | undefined
  /** Split every watch event into writes of this many bytes (tests partial lines). */
  chunkSize = 0
  /** End every watch right after its initial events (a server that keeps closing streams). */
  endWatchesAtOnce = false
  port = 0
  #rv = 100
  #compactedRv = 0
  readonly #collections = new Map<string, Map<string, Obj>>()
  readonly #history = new Map<string, Change[]>()
  readonly #watchers = new Set<Watcher>()
  readonly #answers = new Map<string, Answer>()
  readonly #sockets = new Set<Socket>()
  readonly #options: FakeApiServerOptions
  #server: http.Server | undefined

  constructor (options: FakeApiServerOptions = {}) {
    this.#options = options
  }

  get url (): string {
    return `${this.#options.tls ? 'https' : 'http'}://127.0.0.1:${this.port}`
  }

  get resourceVersion (): string {
    return String(this.#rv)
  }

  /** Serves a collection at this path (e.g. /api/v1/secrets or /apis/g/v/namespaces/ns/leases). */
  collection (path: string): this {
    if (!this.#collections.has(path)) {
      this.#collections.set(path, new Map())
      this.#history.set(path, [])
    }
    return this
  }

  objects (path: string): Obj[] {
    return [...(this.#collections.get(path)?.values() ?? [])]
  }

  async listen (port = 0): Promise<this> {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => { this.#handle(req, res) }
    const tls = this.#options.tls
    const server = tls
      ? https.createServer({ cert: tls.cert, key: tls.key, ...(tls.ca ? { ca: tls.ca, requestCert: true, rejectUnauthorized: false } : {}) }, handler)
      : http.createServer(handler)
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket)
      socket.on('close', () => this.#sockets.delete(socket))
    })
    if (tls) {
      server.on('secureConnection', (socket) => {
        const cert = socket.getPeerCertificate()
        if (cert && cert.subject) this.clientCertificates.push(String(cert.subject.CN))
      })
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen({ port, host: '127.0.0.1' }, () => resolve())
    })
    this.#server = server
    this.port = (server.address() as AddressInfo).port
    return this
  }

  /** Goes away: open connections (watches included) are cut, new ones refused until listen(port) again. */
  async close (): Promise<void> {
    const server = this.#server
    this.#server = undefined
    this.#watchers.clear()
    for (const socket of this.#sockets) socket.destroy()
    if (server) await new Promise((resolve) => server.close(resolve))
  }

  /** Creates or updates an object, notifying watchers (ADDED or MODIFIED). */
  put (path: string, obj: Obj): Obj {
    const objects = this.#need(path)
    const k = key(obj)
    const type = objects.has(k) ? 'MODIFIED' : 'ADDED'
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.#rv) } }
    objects.set(k, stored)
    this.#record(path, { rv: this.#rv, type, obj: stored })
    return stored
  }

  /** Deletes an object, notifying watchers. */
  remove (path: string, k: string): void {
    const objects = this.#need(path)
    const old = objects.get(k)
    if (!old) throw new Error(`fake apiserver: no ${k} in ${path}`)
    objects.delete(k)
    const gone = { ...old, metadata: { ...old.metadata, resourceVersion: String(++this.#rv) } }
    this.#record(path, { rv: this.#rv, type: 'DELETED', obj: gone })
  }

  /** Changes made without telling current watchers, as if they happened while a client was disconnected. */
  quietly (fn: () => void): void {
    const watchers = [...this.#watchers]
    this.#watchers.clear()
    try {
      fn()
    } finally {
      for (const w of watchers) this.#watchers.add(w)
    }
  }

  /** Answers requests to a path with what fn returns (after intercept, before collections). */
  answer (path: string, fn: Answer): this {
    this.#answers.set(path, fn)
    return this
  }

  /** Answers TokenReviews from rules.users and SubjectAccessReviews with rules.allow, as the API server would. */
  reviews (rules: ReviewRules): this {
    this.answer(TOKEN_REVIEWS, (req) => {
      const token = String(req.body?.spec?.token)
      const user = Object.hasOwn(rules.users, token) ? rules.users[token] : undefined
      return { ...req.body, status: user ? { authenticated: true, user } : { authenticated: false, error: 'invalid bearer token' } }
    })
    this.answer(SUBJECT_ACCESS_REVIEWS, (req) => {
      const allowed = rules.allow?.(req.body.spec as AccessReviewSpec) ?? false
      return { ...req.body, status: allowed ? { allowed } : { allowed, reason: 'no RBAC policy matched' } }
    })
    return this
  }

  /** Forgets history: watches from older resourceVersions get a 410 Expired ERROR event. */
  compact (): void {
    this.#compactedRv = this.#rv
    for (const changes of this.#history.values()) changes.length = 0
  }

  /** Sends a BOOKMARK with the current resourceVersion to the watchers of a collection. */
  bookmark (path: string): void {
    const kind = 'Bookmark'
    for (const w of this.#watchersOf(path)) {
      this.#send(w, { type: 'BOOKMARK', object: { kind, apiVersion: 'v1', metadata: { resourceVersion: String(this.#rv) } } })
    }
  }

  /** Sends an ERROR event with a Status to the watchers of a collection and ends their streams. */
  watchError (path: string, code = 410, reason = 'Expired', message = 'too old resource version'): void {
    for (const w of this.#watchersOf(path)) {
      this.#send(w, { type: 'ERROR', object: status(code, reason, message) })
      this.#end(w)
    }
  }

  /** Ends the watch streams of a collection cleanly (as the server's timeoutSeconds does). */
  endWatches (path: string): void {
    for (const w of this.#watchersOf(path)) this.#end(w)
  }

  /** Sends raw text to the watchers of a collection (malformed or unusual events). */
  sendRaw (path: string, text: string): void {
    for (const w of this.#watchersOf(path)) w.res.write(text)
  }

  watcherCount (path: string): number {
    return this.#watchersOf(path).length
  }

  #need (path: string): Map<string, Obj> {
    this.collection(path)
    return this.#collections.get(path) as Map<string, Obj>
  }

  #watchersOf (path: string): Watcher[] {
    return [...this.#watchers].filter((w) => w.collection === path)
  }

  #record (path: string, change: Change): void {
    this.#history.get(path)?.push(change)
    for (const w of this.#watchersOf(path)) this.#send(w, { type: change.type, object: change.obj })
  }

  #send (w: Watcher, event: { type: string, object: Obj | Record<string, unknown> }): void {
    const object = w.metadataOnly && event.type !== 'ERROR' ? partial(event.object as Obj, 'PartialObjectMetadata') : event.object
    const text = JSON.stringify({ type: event.type, object }) + '\n'
    if (!this.chunkSize) {
      w.res.write(text)
      return
    }
    const bytes = Buffer.from(text)
    for (let i = 0; i < bytes.length; i += this.chunkSize) w.res.write(bytes.subarray(i, i + this.chunkSize))
  }

  #end (w: Watcher): void {
    this.#watchers.delete(w)
    w.res.end()
  }

  #handle (req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x')
      const text = Buffer.concat(chunks).toString('utf8')
      const logged: Logged = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers }
      if (text) logged.body = JSON.parse(text)
      this.requests.push(logged)
      const code = this.intercept?.(logged)
      if (typeof code === 'object') return reply(res, code.code, status(code.code, code.reason, code.message))
      if (code !== undefined) return reply(res, code, status(code, code >= 500 ? 'InternalError' : 'BadRequest', `intercepted with ${code}`))
      const answer = this.#answers.get(logged.path)?.(logged)
      if (answer !== undefined) return reply(res, logged.method === 'POST' ? 201 : 200, answer)
      this.#route(logged, res)
    })
  }

  #route (req: Logged, res: http.ServerResponse): void {
    const accept = String(req.headers.accept ?? '')
    if (this.#collections.has(req.path)) {
      const objects = this.#need(req.path)
      if (req.method === 'GET' && req.query.get('watch') === 'true') return this.#watch(req, res, accept.includes('as=PartialObjectMetadata;'))
      if (req.method === 'GET') return this.#list(req, res, objects, accept.includes('as=PartialObjectMetadataList'))
      if (req.method === 'POST') {
        const obj = req.body as Obj
        if (objects.has(key(obj))) return reply(res, 409, status(409, 'AlreadyExists', `"${obj.metadata.name}" already exists`))
        const invalid = invalidMicroTimes(obj)
        if (invalid) return reply(res, 422, status(422, 'Invalid', invalid))
        return reply(res, 201, this.put(req.path, obj))
      }
      return reply(res, 405, status(405, 'MethodNotAllowed', 'method not allowed'))
    }
    const slash = req.path.lastIndexOf('/')
    const collection = req.path.slice(0, slash)
    const name = decodeURIComponent(req.path.slice(slash + 1))
    const objects = this.#collections.get(collection)
    const current = [...(objects?.values() ?? [])].find((o) => o.metadata.name === name)
    if (!objects || !current) {
      return reply(res, 404, status(404, 'NotFound', `"${name}" not found`))
    }
    if (req.method === 'GET') return reply(res, 200, current)
    if (req.method === 'DELETE') {
      this.remove(collection, key(current))
      return reply(res, 200, status(200, '', ''))
    }
    if (req.method === 'PUT') {
      const obj = req.body as Obj
      if (obj.metadata.resourceVersion && obj.metadata.resourceVersion !== current.metadata.resourceVersion) {
        return reply(res, 409, status(409, 'Conflict', 'the object has been modified; please apply your changes to the latest version and try again'))
      }
      const invalid = invalidMicroTimes(obj)
      if (invalid) return reply(res, 422, status(422, 'Invalid', invalid))
      return reply(res, 200, this.put(collection, obj))
    }
    if (req.method === 'PATCH' && req.headers['content-type'] === 'application/merge-patch+json') {
      return reply(res, 200, this.put(collection, mergePatch(current, req.body) as Obj))
    }
    return reply(res, 405, status(405, 'MethodNotAllowed', 'method not allowed'))
  }

  #list (req: Logged, res: http.ServerResponse, objects: Map<string, Obj>, metadataOnly: boolean): void {
    const all = [...objects.values()].sort((a, b) => key(a).localeCompare(key(b)))
    const limit = Number(req.query.get('limit') ?? 0)
    let offset = 0
    let listRv = this.#rv
    const cont = req.query.get('continue')
    if (cont) {
      const token = JSON.parse(Buffer.from(cont, 'base64').toString()) as { offset: number, rv: number }
      if (token.rv < this.#compactedRv) return reply(res, 410, status(410, 'Expired', 'The provided continue parameter is too old'))
      offset = token.offset
      listRv = token.rv
    }
    const page = limit > 0 ? all.slice(offset, offset + limit) : all.slice(offset)
    const next = limit > 0 && offset + limit < all.length
      ? Buffer.from(JSON.stringify({ offset: offset + limit, rv: listRv })).toString('base64')
      : undefined
    reply(res, 200, {
      apiVersion: metadataOnly ? 'meta.k8s.io/v1' : 'v1',
      kind: metadataOnly ? 'PartialObjectMetadataList' : 'List',
      metadata: { resourceVersion: String(listRv), ...(next ? { continue: next } : {}) },
      items: metadataOnly ? page.map((o) => partial(o, 'PartialObjectMetadata')) : page
    })
  }

  #watch (req: Logged, res: http.ServerResponse, metadataOnly: boolean): void {
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' })
    res.flushHeaders()
    const watcher: Watcher = { collection: req.path, res, metadataOnly }
    const from = Number(req.query.get('resourceVersion') || 0)
    if (from && from < this.#compactedRv) {
      this.#send(watcher, { type: 'ERROR', object: status(410, 'Expired', `too old resource version: ${from} (${this.#compactedRv})`) })
      res.end()
      return
    }
    if (from) {
      for (const change of this.#history.get(req.path) ?? []) {
        if (change.rv > from) this.#send(watcher, { type: change.type, object: change.obj })
      }
    } else {
      for (const obj of this.objects(req.path)) this.#send(watcher, { type: 'ADDED', object: obj })
    }
    if (this.endWatchesAtOnce) {
      res.end()
      return
    }
    this.#watchers.add(watcher)
    res.on('close', () => this.#watchers.delete(watcher))
  }
}

/** RFC 7386: objects merge, null removes, anything else replaces. */
function mergePatch (target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch
  const out: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = mergePatch(out[k], v)
  }
  return out
}

function partial (obj: Obj, kind: string): Obj {
  return { apiVersion: 'meta.k8s.io/v1', kind, metadata: obj.metadata }
}

function invalidMicroTimes (obj: Obj): string | undefined {
  const spec = (obj.spec ?? {}) as Record<string, unknown>
  for (const field of ['acquireTime', 'renewTime']) {
    const value = spec[field]
    if (value !== undefined && (typeof value !== 'string' || !MICRO_TIME.test(value))) {
      return `Lease.coordination.k8s.io "${obj.metadata.name}" is invalid: spec.${field}: cannot parse ${JSON.stringify(value)} as MicroTime`
    }
  }
  return undefined
}

function reply (res: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** Starts a fake API server with the given collections. */
export async function startFakeApiServer (collections: string[] = [], options: FakeApiServerOptions = {}): Promise<FakeApiServer> {
  const server = new FakeApiServer(options)
  for (const path of collections) server.collection(path)
  return server.listen()
}

/** A kubeconfig (as client-node loadFromOptions input) pointing at the fake server. */
export function kubeConfigOptions (server: string, user: Record<string, unknown> = { token: 'test-token' }, cluster: Record<string, unknown> = {}) {
  return {
    // client-node only talks plain HTTP with insecure-skip-tls-verify set.
    clusters: [{ name: 'fake', server, skipTLSVerify: server.startsWith('http:'), ...cluster }],
    users: [{ name: 'tester', ...user }],
    contexts: [{ name: 'fake', cluster: 'fake', user: 'tester' }],
    currentContext: 'fake'
  }
}

/** Writes a kubeconfig for the fake API server at `server` (a reader with a token, TLS not verified) into dir; its path. */
export function writeKubeconfig (dir: string, server: string): string {
  const file = join(dir, `kubeconfig-${server.replace(/\W/g, '')}`)
  writeFileSync(file, JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'fake',
    clusters: [{ name: 'fake', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'reader', user: { token: 'token' } }],
    contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'reader' } }]
  }))
  return file
}
