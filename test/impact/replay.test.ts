// Recording and replay as an extension team uses them: the extension server records what it answers (settings
// redacted, rotated by size), `replay` sends the recorded requests to another version and names what it answers
// differently, per hook and, for GeneratePatches, per template; a recording it cannot use is refused by line.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { API_VERSION, sampleRequest, GeneratePatches, BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { readRecording, RecordingError } from '../../src/impact/recording.js'
import { replay } from '../../src/impact/replay.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import { HookRecorder, REDACTED } from '../../src/server/recording.js'
import { createExtensionServer } from '../../src/server/server.js'
import { InProcessRuntimeClient } from '../../src/simulate/index.js'
import { referenceHandlersV2 } from '../helpers/reference-extension-v2.js'

const dir = mkdtempSync(join(tmpdir(), 'runtime-sdk-replay-'))
const client = (handlers = referenceHandlers()) => new InProcessRuntimeClient(createInProcessExtension({ handlers }), 'reference')

/** A recording of the reference extension answering a GeneratePatches (with a secret setting) and a BeforeClusterCreate. */
async function recordReference (file: string): Promise<void> {
  const server = createExtensionServer({ handlers: referenceHandlers(), insecureHttp: true, logLevel: 'silent', record: { file } })
  const sample = sampleRequest(GeneratePatches)
  const workerBootstrap = {
    uid: 'md-0-bootstrap',
    holderReference: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', namespace: 'default', name: 'sample-md-0', fieldPath: 'spec.template.spec.bootstrap.configRef' },
    object: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', metadata: { name: 'sample-md-0', namespace: 'default' }, spec: { template: { spec: {} } } }
  }
  const patches = { ...sample, items: [...sample.items ?? [], workerBootstrap], settings: { token: 'secret' } }
  for (const [hook, name, request] of [['generatepatches', 'generate-patches', patches], ['beforeclustercreate', 'before-cluster-create', sampleRequest(BeforeClusterCreate)]] as const) {
    const r = await server.inject({ method: 'POST', url: `/${API_VERSION}/${hook}/${name}`, payload: JSON.stringify(request) })
    if (r.statusCode !== 200) throw new Error(r.body)
  }
  await server.close()
}

t.test('the server records each call, settings redacted; the same version replays alike', async t => {
  const file = join(dir, 'same.jsonl')
  await recordReference(file)
  const calls = await readRecording(file)
  t.same(calls.map(c => [c.hook, c.handler]), [['GeneratePatches', 'generate-patches'], ['BeforeClusterCreate', 'before-cluster-create']])
  t.match(calls[0], { format: 'runtime-sdk.recording/v1', apiVersion: API_VERSION, request: { settings: { token: REDACTED } }, response: { status: 'Success' } })
  t.notMatch(readFileSync(file, 'utf8'), /secret/, 'the setting\'s value is not on disk')
  await t.rejects(replay(calls, { client: client(), extensionName: 'reference' }), new RecordingError('line 1 (GeneratePatches generate-patches): the recording redacts the settings token: give them again (--setting key=value, or --extension-configs with the ExtensionConfig that sets them)'))
  const report = await replay(calls, { client: client(), extensionName: 'reference', settings: { token: 'secret' } })
  t.ok(report.calls.every(c => c.same), 'every answer means what the recorded one meant')
  t.same(report.hooks, [{ hook: 'GeneratePatches', handler: 'generate-patches', calls: 1, differing: 0 }, { hook: 'BeforeClusterCreate', handler: 'before-cluster-create', calls: 1, differing: 0 }])
})

t.test('another version: the GeneratePatches answers that differ, by the templates they patch', async t => {
  const file = join(dir, 'v2.jsonl')
  await recordReference(file)
  const report = await replay(await readRecording(file), { client: client(referenceHandlersV2('command')), extensionName: 'reference', settings: { token: 'x' }, hooks: ['GeneratePatches'] })
  t.equal(report.calls.length, 1, 'only the hooks asked for')
  const [call] = report.calls
  t.equal(call?.same, false)
  t.same(call?.fields, [], 'status and message alike')
  t.match(call?.templates, [{ template: /^KubeadmConfigTemplate .*\(MachineDeployment spec\.template\.spec\.bootstrap\.configRef\)$/, operations: [{ op: 'add', path: '/spec/template/spec/preKubeadmCommands', value: ['echo v2'] }] }])
})

t.test('a recording that cannot be used is refused, naming the file and the line', async t => {
  const write = (name: string, text: string) => { writeFileSync(join(dir, name), text); return join(dir, name) }
  await t.rejects(readRecording(join(dir, 'none.jsonl')), /none\.jsonl: no such file/)
  await t.rejects(readRecording(write('text.jsonl', 'hello\n')), /text\.jsonl:1: not JSON: this is not a runtime-sdk recording/)
  await t.rejects(readRecording(write('other.jsonl', '{"format":"other/v9"}\n')), /other\.jsonl:1: format "other\/v9" is not runtime-sdk\.recording\/v1/)
  await t.rejects(readRecording(write('cut.jsonl', `${readFileSync(join(dir, 'same.jsonl'), 'utf8').slice(0, 200)}`)), /cut\.jsonl:1: the recording is truncated/)
})

t.test('the recording rotates at maxBytes and keeps maxFiles', async t => {
  const file = join(dir, 'rotated.jsonl')
  const recorder = new HookRecorder({ file, maxBytes: 400, maxFiles: 3 })
  for (let i = 0; i < 10; i++) recorder.record({ time: `t${i}`, hook: 'BeforeClusterCreate', apiVersion: API_VERSION, handler: 'h', requestId: String(i), durationMs: 1 }, JSON.stringify({ n: i, pad: 'x'.repeat(100) }), '{"status":"Success"}')
  await recorder.close()
  const kept = [...await readRecording(`${file}.2`), ...await readRecording(`${file}.1`), ...await readRecording(file)].map(c => c.requestId)
  t.same(kept, kept.slice().sort((a, b) => Number(a) - Number(b)), 'oldest first across the files')
  t.equal(kept.at(-1), '9', 'the newest call is in the file itself')
  t.ok(kept.length < 10, `${kept.length} calls kept, the oldest dropped`)
  t.ok(readFileSync(file).length <= 400)
})
