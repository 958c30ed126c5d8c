// What `serve` loads before its first answer: not fastify (hook calls and probes are answered from node's request
// listener; the first other request loads it), TypeBox (types only), the YAML library (no responses file), Swagger
// UI (until /docs is asked for), fastify's schema compilers (no route of ours declares a schema), Ajv (the hooks'
// decoders are generated), the parts of prom-client it does not use or node:cluster (for --workers).
// Together they were more than half of its start-up time and a third of its resident set.
import t from 'tap'
import { sampleRequest } from '../../src/api/hooks/v1alpha1/index.js'
import { serveReferenceExtension } from '../helpers/reference-extension-process.js'
import { API, call } from '../helpers/server.js'

const REGISTER = new URL('../helpers/module-loads/register.mjs', import.meta.url).href

t.test('serve answers hook calls and probes without loading fastify, TypeBox, YAML, Swagger UI, fastify\'s schema compilers, Ajv, prom-client\'s default metrics or node:cluster; /docs loads Swagger UI', async t => {
  // tsx alone, not the test runner's loaders: those resolve some packages without passing them down the chain.
  const ext = await serveReferenceExtension(t.testdir(), { execArgv: ['--import', 'tsx', '--import', REGISTER] })
  t.teardown(() => { ext.child.kill('SIGKILL') })
  const loaded = (pkg: string) => ext.out().split('\n').filter(line => line.startsWith('module-loaded ') && line.includes(`/node_modules/${pkg}/`))
  t.not(loaded('pino').length, 0, 'the recorder sees packages as they load')

  const answer = await call(ext.url, `/${API}/beforeclustercreate/before-cluster-create`, JSON.stringify(sampleRequest('BeforeClusterCreate')), { ca: ext.ca })
  t.equal(answer.json.status, 'Success', 'a hook call, validated')
  t.equal((await call(ext.url, '/readyz', undefined, { ca: ext.ca, method: 'GET' })).status, 200, 'ready')
  t.same(loaded('fastify'), [], 'fastify is not loaded')
  t.same(loaded('typebox'), [], 'TypeBox is not loaded')
  t.same(loaded('yaml'), [], 'YAML is not loaded')
  t.same(loaded('@fastify/swagger-ui'), [], 'Swagger UI is not loaded')
  t.same([...loaded('@fastify/ajv-compiler'), ...loaded('@fastify/fast-json-stringify-compiler'), ...loaded('fast-json-stringify').filter(line => line.endsWith('/index.js'))], [],
    'fastify\'s schema compilers are not loaded (its precompiled error serializer needs only fast-json-stringify\'s runtime)')
  t.not(loaded('prom-client').length, 0, 'prom-client is loaded')
  t.same(loaded('prom-client').filter(line => !/\/lib\/(registry|counter|gauge|histogram|metric|util|validation|exemplar)\.js$/.test(line)), [],
    'only the metric classes of prom-client are loaded, not its default metrics, Summary or Pushgateway')
  t.same([...loaded('ajv'), ...loaded('ajv-formats')], [], 'Ajv is not loaded: Cluster API\'s hooks are checked by the generated decoders')

  const builtins = ext.out().split('\n').filter(line => line.startsWith('module-loaded node:'))
  t.ok(builtins.includes('module-loaded node:https'), 'the recorder sees Node\'s modules imported')
  t.notOk(builtins.includes('module-loaded node:cluster'), 'node:cluster is not loaded (only --workers needs it)')

  const docs = await call(ext.url, '/docs/', undefined, { ca: ext.ca, method: 'GET' })
  t.equal(docs.status, 200)
  t.not(loaded('@fastify/swagger-ui').length, 0, 'Swagger UI is loaded once /docs is asked for')
  t.not(loaded('fastify').length, 0, 'and fastify with it')
})
