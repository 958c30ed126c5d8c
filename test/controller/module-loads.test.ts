// What the controller loads to discover extensions on the Kubernetes API: not Ajv (the API server validates
// ExtensionConfigs; the hooks' decoders are generated, ESM modules, one per Go package), not
// undici's index (fetch, WebSocket, caches...), and not YAML (read only from a kubeconfig file; a pod uses its
// service account), nor OpenTelemetry's SDK without OTEL_* variables. All cost the controller's resident set; Ajv is
// loaded once an ExtensionConfig is validated here (the file source).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import t from 'tap'
import { serveReferenceExtension } from '../helpers/reference-extension-process.js'

const SCRIPT = new URL('../helpers/module-loads/controller-discovery.ts', import.meta.url).pathname
const REGISTER = new URL('../helpers/module-loads/register.mjs', import.meta.url).href

t.test('discovery loads neither Ajv nor undici\'s index; validating an ExtensionConfig loads Ajv', async t => {
  const ext = await serveReferenceExtension(t.testdir())
  t.teardown(() => { ext.child.kill('SIGKILL') })
  // The test runner's own loaders: the coverage of a child loading our files through another TypeScript loader would be
  // merged with, and spoil, the coverage of the same files from the tests.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')))
  const child = spawn(process.execPath, [...process.execArgv, '--import', REGISTER, SCRIPT, ext.url, ext.caBundle], { stdio: ['ignore', 'pipe', 'pipe'], env })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const [code] = await once(child, 'close') as [number]
  t.equal(code, 0, code === 0 ? 'the script exits 0' : stderr.slice(-4000))
  t.match(stdout, /^discovered 16$/m, 'the reference extension\'s handlers were discovered')
  t.match(stdout, /^valid true$/m)

  const [discovering = '', validating = ''] = stderr.split('\nvalidating\n')
  const loaded = (text: string, pkg: string) => text.split('\n').filter(line => line.startsWith('module-loaded ') && line.includes(`/node_modules/${pkg}/`))
  t.not(loaded(discovering, 'undici').length, 0, 'undici is loaded')
  t.same(loaded(discovering, 'undici').filter(line => line.endsWith('/undici/index.js') || line.includes('/undici/lib/web/')), [],
    'not its index, fetch or WebSocket')
  t.same(loaded(discovering, 'ajv'), [], 'Ajv is not loaded to discover')
  t.same(loaded(discovering, 'yaml'), [], 'nor YAML')
  t.match(stdout, /^tracing off$/m, 'no OTEL_* variables: no tracing')
  t.same(discovering.split('\n').filter(line => line.startsWith('module-loaded ') && line.includes('/node_modules/@opentelemetry/') && !line.includes('/node_modules/@opentelemetry/api/')), [],
    'of OpenTelemetry, the API alone: the SDK and exporters are not loaded')
  t.not(loaded(validating, 'ajv').length, 0, 'Ajv is loaded to validate an ExtensionConfig')
  const decoders = discovering.split('\n').filter(line => line.startsWith('module-loaded ') && line.includes('/catalog/decoder/') && line.includes('.generated.'))
  t.same(decoders.map(line => line.slice(line.lastIndexOf('/') + 1).replace(/\.[jt]s$/, '')).sort(), ['builtin.generated', 'clusterv1.generated', 'corev1.generated', 'metav1.generated', 'runtimehooksv1.generated'],
    'the Go decoders, the ESM module of each Go package')
})
