// What a handler gets besides its request (logger, signal, deadline) and what the server logs about a call.
import { Writable } from 'node:stream'
import { pino, type Logger } from 'pino'
import t from 'tap'
import { AfterClusterUpgrade, BeforeClusterCreate, BeforeClusterDelete } from '../../src/api/hooks/v1alpha1/index.js'
import { Deadlines } from '../../src/server/deadlines.js'
import { createExtensionServer, defineHandler, type HandlerContext } from '../../src/server/index.js'
import { lazyChildLogger } from '../../src/server/lazy-logger.js'
import { API, sleep } from '../helpers/server.js'

const cluster = { kind: 'Cluster', apiVersion: 'cluster.x-k8s.io/v1beta2', metadata: { name: 'c1', namespace: 'default' } }
const bcc = JSON.stringify({ kind: 'BeforeClusterCreateRequest', apiVersion: API, cluster })

function capture (level: string): { logger: Logger, lines: Array<Record<string, unknown>>, children: () => number } {
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level }, new Writable({ write (chunk, _enc, cb) { lines.push(JSON.parse(String(chunk))); cb() } }))
  let children = 0
  // pino children inherit from their parent object, so this counts the children of children too.
  const child = logger.child
  logger.child = function (this: Logger, ...args: Parameters<Logger['child']>) { children++; return child.apply(this, args) } as Logger['child']
  return { logger, lines, children: () => children }
}

t.test('handler and failure logs carry the request id, hook, handler and apiVersion', async (t) => {
  const { logger, lines } = capture('info')
  const server = createExtensionServer({
    insecureHttp: true,
    logger,
    docs: false,
    handlers: [
      defineHandler({
        hook: BeforeClusterCreate,
        name: 'talker',
        handler: (_request, ctx) => {
          ctx.log.info({ step: 1 }, 'handler says hello')
          ctx.log.child({ step: 2 }).warn('nested logger')
          return { status: 'Success' }
        }
      }),
      defineHandler({ hook: BeforeClusterDelete, name: 'refuser', handler: () => ({ status: 'Failure', message: 'no' }) })
    ]
  })
  t.teardown(() => server.close())
  const reply = await server.inject({ method: 'POST', url: `/${API}/beforeclustercreate/talker`, payload: bcc, headers: { 'x-request-id': 'call-1' } })
  t.equal(reply.json().status, 'Success')
  t.equal(reply.headers['x-request-id'], 'call-1')
  const context = { reqId: 'call-1', hook: 'BeforeClusterCreate', handler: 'talker', apiVersion: API }
  t.match(lines.find(l => l['msg'] === 'handler says hello'), { ...context, step: 1, level: 30 })
  t.match(lines.find(l => l['msg'] === 'nested logger'), { ...context, step: 2, level: 40 })
  t.match(lines.find(l => l['msg'] === 'incoming request'), { reqId: 'call-1' }, 'fastify\'s request log keeps its request id')

  await server.inject({ method: 'POST', url: `/${API}/beforeclustercreate/talker`, payload: '{"cluster":' })
  const failed = lines.find(l => l['msg'] === 'hook call failed')
  t.match(failed, { hook: 'BeforeClusterCreate', handler: 'talker', apiVersion: API, reason: 'malformed_json', reqId: /^[0-9a-f-]{36}$/ })
})

t.test('at level warn, answering calls makes no child logger; a warning still carries the context', async (t) => {
  const { logger, lines, children } = capture('warn')
  let warn = false
  const server = createExtensionServer({
    insecureHttp: true,
    logger,
    docs: false,
    handlers: [defineHandler({
      hook: BeforeClusterCreate,
      name: 'quiet',
      handler: async (_request, ctx) => {
        if (warn) ctx.log.warn('careful')
        ctx.log.info('not written at warn')
        return { status: 'Success' }
      }
    })]
  })
  t.teardown(() => server.close())
  await server.app.ready()
  const made = children()
  lines.length = 0 // the insecureHttp warning
  for (let i = 0; i < 5; i++) {
    t.equal((await server.inject({ method: 'POST', url: `/${API}/beforeclustercreate/quiet`, payload: bcc })).json().status, 'Success')
  }
  t.equal((await server.inject({ method: 'POST', url: `/${API}/beforeclustercreate/quiet`, payload: '[]' })).json().status, 'Failure')
  t.equal(children(), made, 'no child logger was made for a call')
  t.equal(lines.length, 0)
  warn = true
  await server.inject({ method: 'POST', url: `/${API}/beforeclustercreate/quiet`, payload: bcc, headers: { 'x-request-id': 'w' } })
  t.same(lines.map(l => l['msg']), ['careful'])
  t.match(lines[0], { reqId: 'w', hook: 'BeforeClusterCreate', handler: 'quiet', level: 40 })
})

t.test('a lazy logger answers like a child logger', async (t) => {
  const { logger, lines, children } = capture('info')
  const log = lazyChildLogger(logger, { a: 1 })
  t.equal(log.level, 'info')
  t.equal(log.isLevelEnabled('debug'), false)
  t.equal(log.isLevelEnabled('info'), true)
  log.debug('dropped')
  t.equal(children(), 0, 'nothing made before a write')
  const nested = lazyChildLogger(log, { b: 2 })
  nested.info('both bindings')
  t.match(lines, [{ a: 1, b: 2, msg: 'both bindings' }])
  t.same(log.bindings(), { a: 1 })
  log.level = 'debug'
  log.debug('now written')
  t.match(lines[1], { a: 1, msg: 'now written' })
  t.equal(logger.level, 'info', 'the parent keeps its level')
  t.ok('info' in log)
  t.equal(Object.getPrototypeOf(log), logger, 'like a pino child, it inherits from its parent')
})

t.test('signal and deadline: made on demand, aborted at the deadline, kept when the context is spread', async (t) => {
  const seen: Array<{ aborted: boolean, reason: string, spread: string[], deadlineInMs: number }> = []
  const server = createExtensionServer({
    insecureHttp: true,
    logger: pino({ level: 'silent' }),
    docs: false,
    handlers: [defineHandler({
      hook: AfterClusterUpgrade,
      name: 'late',
      handler: async (_request, ctx: HandlerContext) => {
        const deadlineInMs = ctx.deadline.getTime() - Date.now()
        await sleep(500) // past the deadline without listening to the signal
        const copy = { ...ctx }
        seen.push({ aborted: copy.signal.aborted, reason: String((copy.signal.reason as Error)?.message), spread: Object.keys(copy).sort(), deadlineInMs })
        return { status: 'Success' }
      }
    })]
  })
  t.teardown(() => server.close())
  const started = Date.now()
  // ?timeout=200ms: the 500 ms margin is cut to half, so the handler gets 100 ms.
  const reply = await server.inject({ method: 'POST', url: `/${API}/afterclusterupgrade/late?timeout=200ms`, payload: JSON.stringify({ cluster, kubernetesVersion: 'v1.33.0' }) })
  t.same(reply.json(), { kind: 'AfterClusterUpgradeResponse', apiVersion: API, status: 'Failure', message: 'handler "late" did not answer within 0.1s', retryAfterSeconds: 0 })
  t.ok(Date.now() - started < 400, 'answered before the handler finished')
  await sleep(550)
  t.equal(seen.length, 1)
  t.match(seen[0], { aborted: true, reason: 'deadline of 0.1s exceeded', spread: ['deadline', 'log', 'name', 'requestId', 'signal'] })
  t.ok((seen[0]?.deadlineInMs ?? 0) > 50 && (seen[0]?.deadlineInMs ?? 0) <= 100, `deadline about 100 ms ahead (${seen[0]?.deadlineInMs} ms)`)
})

t.test('Deadlines: one timer expires late calls in deadline order, answered calls never', async (t) => {
  const deadlines = new Deadlines()
  const expired: string[] = []
  const now = performance.now()
  const late = deadlines.track(now + 80, () => expired.push('late'))
  const answered = deadlines.track(now + 20, () => expired.push('answered'))
  deadlines.track(now + 40, () => expired.push('early'))
  t.equal(deadlines.size, 3)
  deadlines.settle(answered)
  await sleep(60)
  t.same(expired, ['early'], 'only the deadline that passed')
  t.ok(performance.now() >= now + 40)
  await sleep(60)
  t.same(expired, ['early', 'late'])
  t.equal(deadlines.size, 0)
  deadlines.settle(late) // settling an expired call changes nothing
  t.same(expired, ['early', 'late'])
})

t.test('Deadlines: an expiry may settle other calls and track new ones', async (t) => {
  const deadlines = new Deadlines()
  const expired: string[] = []
  const now = performance.now()
  const others: Array<ReturnType<Deadlines['track']>> = []
  deadlines.track(now + 20, () => {
    expired.push('first')
    for (const other of others) deadlines.settle(other)
    deadlines.track(performance.now() + 20, () => expired.push('tracked by an expiry'))
  })
  others.push(deadlines.track(now + 20, () => expired.push('other')))
  deadlines.track(now + 500, () => expired.push('far'))
  await sleep(90)
  t.equal(expired[0], 'first')
  t.equal(new Set(expired).size, expired.length, 'no call expires twice')
  t.equal(expired.at(-1), 'tracked by an expiry', 'the new call expires on its deadline, not the far one')
  t.equal(deadlines.size, 1, 'only the far call still runs')
})

t.test('Deadlines: an idle tracker does not keep the process alive', async (t) => {
  const timers = () => process.getActiveResourcesInfo().filter(r => r === 'Timeout').length
  const before = timers()
  const deadlines = new Deadlines()
  const call = deadlines.track(performance.now() + 60_000, () => t.fail('must not expire'))
  t.equal(timers(), before + 1, 'a running call keeps its deadline timer')
  deadlines.settle(call)
  t.equal(timers(), before, 'no call left: the timer no longer holds the event loop')
  const again = deadlines.track(performance.now() + 60_000, () => t.fail('must not expire'))
  t.equal(timers(), before + 1)
  deadlines.settle(again)
})
