// What `serve` loads before its first answer: not TypeBox (types only), the YAML library (no responses file) or
// Swagger UI (until /docs is asked for). Together they were about half of its start-up time and a fifth of its resident set.
import t from 'tap'
import { sampleRequest } from '../../src/api/hooks/v1alpha1/index.js'
import { serveReferenceExtension } from '../helpers/reference-extension-process.js'
import { API, call } from '../helpers/server.js'

const REGISTER = new URL('../helpers/module-loads/register.mjs', import.meta.url).href

t.test('serve answers hook calls without loading TypeBox, YAML or Swagger UI; /docs loads Swagger UI', async t => {
  // tsx alone, not the test runner's loaders: those resolve some packages without passing them down the chain.
  const ext = await serveReferenceExtension(t.testdir(), { execArgv: ['--import', 'tsx', '--import', REGISTER] })
  t.teardown(() => { ext.child.kill('SIGKILL') })
  const loaded = (pkg: string) => ext.out().split('\n').filter(line => line.startsWith('module-loaded ') && line.includes(`/node_modules/${pkg}/`))
  t.not(loaded('fastify').length, 0, 'the recorder sees packages as they load')

  const answer = await call(ext.url, `/${API}/beforeclustercreate/before-cluster-create`, JSON.stringify(sampleRequest('BeforeClusterCreate')), { ca: ext.ca })
  t.equal(answer.json.status, 'Success', 'a hook call, validated')
  t.same(loaded('typebox'), [], 'TypeBox is not loaded')
  t.same(loaded('yaml'), [], 'YAML is not loaded')
  t.same(loaded('@fastify/swagger-ui'), [], 'Swagger UI is not loaded')

  const docs = await call(ext.url, '/docs/', undefined, { ca: ext.ca, method: 'GET' })
  t.equal(docs.status, 200)
  t.not(loaded('@fastify/swagger-ui').length, 0, 'Swagger UI is loaded once /docs is asked for')
})
