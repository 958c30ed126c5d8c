// The secure endpoint's authentication and authorization, delegated to a (fake) API server: TokenReview, then
// SubjectAccessReview; 401, 403 and 5xx answers with stable codes; decisions cached for a while, errors never.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KubeConfig } from '@kubernetes/client-node'
import t, { type Test } from 'tap'
import { Controller } from '../../src/controller/controller.js'
import { FileSource } from '../../src/controller/file-source.js'
import { type KubernetesAuthOptions, kubernetesAuthorizer } from '../../src/controller/http-auth.js'
import { createControllerHttp } from '../../src/controller/http.js'
import { KubeApi } from '../../src/kube/api.js'
import { kubeConfigOptions, startFakeApiServer, SUBJECT_ACCESS_REVIEWS, TOKEN_REVIEWS } from '../helpers/fake-apiserver.js'

const alice = { username: 'alice', uid: 'uid-1', groups: ['system:authenticated', 'monitoring'], extra: { 'authentication.kubernetes.io/pod-name': ['prometheus-0'] } }
const bob = { username: 'bob' }

const fake = await startFakeApiServer()
fake.reviews({ users: { 'alice-token': alice, 'bob-token': bob }, allow: spec => spec.user === 'alice' })
t.teardown(() => fake.close())

const controller = new Controller({ source: new FileSource({ dir: await mkdtemp(join(tmpdir(), 'runtime-sdk-http-auth-')), rescanIntervalMs: 0 }) })
await controller.start()
t.teardown(() => controller.stop())

function apiFor (server: string): KubeApi {
  const kc = new KubeConfig()
  kc.loadFromOptions(kubeConfigOptions(server))
  return new KubeApi(kc, { timeoutMs: 5_000 })
}

/** The endpoint with its own authorizer (and so its own caches) on the given API server. */
function endpoint (t: Test, options: KubernetesAuthOptions = {}, server = fake.url) {
  const api = apiFor(server)
  const app = createControllerHttp({ controller, authorize: kubernetesAuthorizer(api, options) })
  t.teardown(async () => { await app.close(); await api.close() })
  // A token with a space is sent as the whole Authorization header.
  return (url: string, token?: string, method: 'GET' | 'POST' = 'GET') =>
    app.inject({ method, url, ...(token !== undefined ? { headers: { authorization: token.includes(' ') ? token : `Bearer ${token}` } } : {}) })
}

const reviewsSince = (start: number) => {
  const made = fake.requests.slice(start)
  return { tokenReviews: made.filter(r => r.path === TOKEN_REVIEWS).length, accessReviews: made.filter(r => r.path === SUBJECT_ACCESS_REVIEWS).length }
}

t.test('the kubelet probes need no token and cause no review', async t => {
  const get = endpoint(t)
  const start = fake.requests.length
  await controller.ready()
  t.equal((await get('/healthz')).statusCode, 200)
  t.equal((await get('/readyz')).statusCode, 200)
  t.equal((await get('/healthz', undefined, 'POST')).statusCode, 405, 'the probes keep their JSON 405')
  t.same(reviewsSince(start), { tokenReviews: 0, accessReviews: 0 })
})

t.test('no bearer token: 401 Unauthorized, before routing', async t => {
  const get = endpoint(t)
  for (const url of ['/metrics', '/extensionconfigs', '/extensionconfigs/x', '/nope']) {
    const res = await get(url)
    t.equal(res.statusCode, 401, url)
    t.same(res.json(), { code: 'Unauthorized', message: 'Unauthorized: send a Kubernetes bearer token (Authorization: Bearer <token>)' }, url)
    t.equal(res.headers['www-authenticate'], 'Bearer')
  }
  t.equal((await get('/metrics', 'Basic YWxpY2U6cGFzc3dvcmQ=')).statusCode, 401, 'another scheme')
  t.equal((await get('/metrics', 'Bearer ')).statusCode, 401, 'an empty token')
})

t.test('a token the API server does not authenticate: 401', async t => {
  const get = endpoint(t)
  const res = await get('/metrics', 'forged-token')
  t.equal(res.statusCode, 401)
  t.same(res.json(), { code: 'Unauthorized', message: 'Unauthorized: the bearer token is not valid' })
  t.match(res.headers['www-authenticate'], /invalid_token/)
  const review = fake.requests.filter(r => r.path === TOKEN_REVIEWS).at(-1)
  t.same(review?.body, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'forged-token' } })
})

t.test('allowed: 200 with the metrics; the SubjectAccessReview names the user, the path and the verb get', async t => {
  const get = endpoint(t)
  const res = await get('/metrics', 'alice-token')
  t.equal(res.statusCode, 200)
  t.match(res.body, /runtime_sdk_registry_ready 1/)
  t.same(fake.requests.filter(r => r.path === SUBJECT_ACCESS_REVIEWS).at(-1)?.body, {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: { user: 'alice', uid: 'uid-1', groups: alice.groups, extra: alice.extra, nonResourceAttributes: { path: '/metrics', verb: 'get' } }
  })
  t.match((await get('/extensionconfigs?x=1', 'alice-token')).json(), { source: 'file', extensionConfigs: [] })
  t.equal(fake.requests.at(-1)?.body.spec.nonResourceAttributes.path, '/extensionconfigs', 'the query is not part of the path')
  t.equal((await get('/extensionconfigs/nope', 'alice-token')).json().code, 'NotFound', 'past authorization, the usual answers')
})

t.test('denied: 403 Forbidden naming the user and the path', async t => {
  const res = await endpoint(t)('/metrics', 'bob-token')
  t.equal(res.statusCode, 403)
  t.same(res.json(), { code: 'Forbidden', message: 'forbidden: User "bob" cannot get path "/metrics"' })
  t.same(fake.requests.at(-1)?.body.spec, { user: 'bob', nonResourceAttributes: { path: '/metrics', verb: 'get' } }, 'absent uid, groups and extra are left out')
})

t.test('answers are cached: tokens 2 min, allowed 5 min, denied 30 s; concurrent requests share one review', async t => {
  let now = 1_000_000
  const get = endpoint(t, { now: () => now })
  const start = fake.requests.length
  const expect = async (token: string, status: number, reviews: { tokenReviews: number, accessReviews: number }, message: string) => {
    t.equal((await get('/metrics', token)).statusCode, status, message)
    t.same(reviewsSince(start), reviews, message)
  }
  await expect('alice-token', 200, { tokenReviews: 1, accessReviews: 1 }, 'first request: both reviews')
  await expect('alice-token', 200, { tokenReviews: 1, accessReviews: 1 }, 'second request: from the cache')
  await expect('bob-token', 403, { tokenReviews: 2, accessReviews: 2 }, 'another user')
  await expect('bob-token', 403, { tokenReviews: 2, accessReviews: 2 }, 'the denial is cached')
  now += 31_000
  await expect('bob-token', 403, { tokenReviews: 2, accessReviews: 3 }, 'after 30 s the denial is asked again')
  await expect('alice-token', 200, { tokenReviews: 2, accessReviews: 3 }, 'the allowance is still cached')
  now += 90_000
  await expect('alice-token', 200, { tokenReviews: 3, accessReviews: 3 }, 'after 2 min the token is reviewed again')
  now += 180_000
  await expect('alice-token', 200, { tokenReviews: 4, accessReviews: 4 }, 'after 5 min the token and the allowance are asked again')
  await expect('forged-token', 401, { tokenReviews: 5, accessReviews: 4 }, 'an invalid token')
  await expect('forged-token', 401, { tokenReviews: 5, accessReviews: 4 }, 'is cached too')

  const burst = await Promise.all(Array.from({ length: 5 }, () => get('/extensionconfigs', 'bob-token')))
  t.same(burst.map(r => r.statusCode), [403, 403, 403, 403, 403])
  t.same(reviewsSince(start), { tokenReviews: 6, accessReviews: 5 }, 'one review of each kind for the burst')
})

t.test('an API server that refuses or does not answer: 500 or 503 with a clear message, never cached', async t => {
  const get = endpoint(t)
  fake.intercept = req => req.path === TOKEN_REVIEWS ? 403 : undefined
  const refused = await get('/metrics', 'alice-token')
  t.equal(refused.statusCode, 500)
  t.same(refused.json(), { code: 'InternalError', message: 'cannot check the request: the Kubernetes API server refused the controller\'s TokenReview (BadRequest); see the controller\'s log' })
  fake.intercept = req => req.path === SUBJECT_ACCESS_REVIEWS ? 503 : undefined
  const failing = await get('/metrics', 'alice-token')
  t.equal(failing.statusCode, 503)
  t.same(failing.json(), { code: 'ServiceUnavailable', message: 'cannot check the request: the Kubernetes API server did not answer the controller\'s SubjectAccessReview; try again' })
  fake.intercept = undefined
  t.equal((await get('/metrics', 'alice-token')).statusCode, 200, 'the failures were not cached')

  const down = endpoint(t, {}, 'http://127.0.0.1:1')
  const unreachable = await down('/metrics', 'alice-token')
  t.equal(unreachable.statusCode, 503)
  t.match(unreachable.json(), { code: 'ServiceUnavailable', message: /did not answer the controller's TokenReview/ })
  t.equal((await down('/healthz')).statusCode, 200, 'the probes do not need the API server')
})
