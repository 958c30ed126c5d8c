// Run with register.mjs: loads the controller as `runtime-sdk controller` does, discovers the extension at argv[2]
// (caBundle argv[3]) through the runtime client, then validates an ExtensionConfig as the file source does. Prints
// "discovered <n>" and marks on stderr where validation starts, so the loads before it can be told apart.
import { validateExtensionConfig } from '../../../src/api/extension-config/validate.js'
import { HttpRuntimeClient } from '../../../src/client/client.js'
import '../../../src/cli/controller.js'
import { startTracing } from '../../../src/telemetry/sdk.js'

const [url, caBundle] = process.argv.slice(2) as [string, string]
// As `runtime-sdk controller` starts: with no OTEL_* variables, tracing stays off and its SDK unloaded.
console.log(`tracing ${await startTracing('runtime-sdk-controller') ? 'on' : 'off'}`)
const ec = { apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'reference' }, spec: { clientConfig: { url, caBundle } } }
const client = new HttpRuntimeClient()
const discovered = await client.discover(ec as Parameters<HttpRuntimeClient['discover']>[0])
console.log(`discovered ${discovered.status?.handlers?.length ?? 0}`)
await client.close()
process.stderr.write('validating\n')
const result = validateExtensionConfig(ec)
console.log(`valid ${result.ok}`)
