// The pictures `simulate --html` and `rollout-impact --html` write, in a real browser (Debian's chromium, driven by
// playwright-core): each page renders with no console error and fetches nothing; the life shows one mark per hook
// call and a bar for each hook that held the Cluster; the impact report a row per object.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import t from 'tap'
import { impactHtml, simulationHtml } from '../../src/cli/html-report.js'
import { BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { rolloutImpact } from '../../src/impact/live.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import { defineHandler } from '../../src/server/types.js'
import { InProcessRuntimeClient, type Unstructured, simulate } from '../../src/simulate/index.js'
import { inNamespace, liveObjects, MemoryManagementCluster, namespaceObject } from '../helpers/memory-cluster.js'
import { referenceHandlersV2 } from '../helpers/reference-extension-v2.js'

const CHROMIUM = process.env['RUNTIME_SDK_CHROMIUM'] ?? '/usr/bin/chromium'
const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'runtime-sdk-html-'))
if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (or set RUNTIME_SDK_CHROMIUM)`)
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
t.teardown(() => browser.close())

/** Opens a page file; returns it with the console errors and every URL it asked for. */
async function open (file: string) {
  const page = await browser.newPage()
  const errors: string[] = []
  const requests: string[] = []
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()) })
  page.on('pageerror', e => errors.push(e.message))
  page.on('request', r => requests.push(r.url()))
  await page.goto(pathToFileURL(file).href)
  return { page, errors, requests }
}

const inputs = [...await readDocuments(`${EXAMPLE}cluster.yaml`), ...await readDocuments(`${EXAMPLE}clusterclass.yaml`), ...await readDocuments(`${EXAMPLE}templates.yaml`)] as Unstructured[]

t.test('a Cluster\'s life: one mark per call, the hold, the templates', async t => {
  let calls = 0
  const holding = defineHandler({ hook: BeforeClusterCreate, name: 'before-cluster-create', handler: () => ({ status: 'Success' as const, retryAfterSeconds: ++calls <= 4 ? 30 : 0, message: calls <= 4 ? 'waiting for <approval> & "quotes"' : '' }) })
  const handlers = referenceHandlers().map(h => h.hook === BeforeClusterCreate ? holding : h)
  const result = await simulate({ handlers, objects: inputs, toVersion: 'v1.35.0', checkDeterminism: false })
  t.equal(result.outcome, 'completed', result.error ?? '')
  const file = join(dir, 'life.html')
  writeFileSync(file, simulationHtml(result, 'default/loop'))
  const { page, errors, requests } = await open(file)
  t.same(errors, [], 'no console error')
  t.same(requests, [pathToFileURL(file).href], 'nothing fetched but the page')
  t.equal(await page.locator('circle.call').count(), result.timeline.length, `${result.timeline.length} marks, one per call`)
  t.equal(await page.locator('circle.call.blocking').count(), result.timeline.filter(e => (e.retryAfterSeconds ?? 0) > 0).length, 'the blocking answers marked')
  t.equal(await page.locator('rect.hold').count(), 1, 'one bar: BeforeClusterCreate held the Cluster')
  t.match(await page.locator('tr.held').first().innerText(), /BeforeClusterCreate\s+0s\s+\d+s\s+\d\s+waiting for <approval> & "quotes"/, 'the message shown as text, escaped')
  t.equal(await page.locator('details').count(), result.phases.reduce((n, p) => n + p.templates.length, 0), 'a section per patched template and phase')
  t.ok(await page.locator('svg').first().isVisible(), 'the timeline is drawn')
})

t.test('a rollout impact report: a row per object, the effect shown', async t => {
  const v1 = new InProcessRuntimeClient(createInProcessExtension({ handlers: referenceHandlers() }), 'reference')
  const created = await simulate({ client: v1, objects: inputs, delete: false, checkDeterminism: false })
  const live = liveObjects(inputs, created)
  const api = new MemoryManagementCluster([...inNamespace(live, 'a'), ...inNamespace(live, 'b'), namespaceObject('a'), namespaceObject('b')])
  const report = await rolloutImpact({ api, selection: {}, name: 'reference', registered: v1, candidate: new InProcessRuntimeClient(createInProcessExtension({ handlers: referenceHandlersV2('command') }), 'reference') })
  const file = join(dir, 'impact.html')
  writeFileSync(file, impactHtml(report))
  const { page, errors } = await open(file)
  t.same(errors, [])
  t.equal(await page.locator('h2').count(), 2, 'a section per Cluster')
  t.equal(await page.locator('td.rollout').count(), 2, 'each Cluster\'s MachineDeployment rolls out')
  t.match(await page.locator('p').first().innerText(), /^2 of 2 Clusters would replace Machines \(2 Machines\)/)
})
