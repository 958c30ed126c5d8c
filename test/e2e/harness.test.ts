// Proves the e2e harness runs a real control plane: a CRD with a status subresource applied with
// kubectl, an informer that sees status updates and survives an apiserver restart, and schema
// validation enforced by the apiserver.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { stringify } from 'yaml'
import {
  ApiException,
  ApiextensionsV1Api,
  CustomObjectsApi,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type KubernetesListObject,
  type KubernetesObject
} from '@kubernetes/client-node'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { waitFor } from '../helpers/wait.js'

const group = 'harness.e2e.example.com'
const version = 'v1alpha1'
const plural = 'widgets'
const namespace = 'default'
const name = 'first'

interface Widget extends KubernetesObject {
  spec: { size: number, color?: string }
  status?: { phase?: string, observedSize?: number }
}

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural, singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{
      name: version,
      served: true,
      storage: true,
      subresources: { status: {} },
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              required: ['size'],
              properties: {
                size: { type: 'integer', minimum: 1 },
                color: { type: 'string', maxLength: 8 }
              }
            },
            status: {
              type: 'object',
              properties: {
                phase: { type: 'string' },
                observedSize: { type: 'integer' }
              }
            }
          }
        }
      }
    }]
  }
}

const widget = (widgetName: string, spec: Record<string, unknown>) =>
  ({ apiVersion: `${group}/${version}`, kind: 'Widget', metadata: { name: widgetName, namespace }, spec })

/** Polls check() until it returns a value other than undefined. */
const until = <T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> =>
  waitFor(check, { timeoutMs, intervalMs: 100, message: what })

function apiError (err: unknown): { code: number, message: string } {
  if (!(err instanceof ApiException)) throw err
  const body = typeof err.body === 'string' ? JSON.parse(err.body) : err.body
  return { code: err.code, message: String(body?.message ?? err.message) }
}

const cp = await startControlPlane({ log: (message) => t.comment(message) })
const kc = cp.kubeConfig
const customObjects = kc.makeApiClient(CustomObjectsApi)
const apiextensions = kc.makeApiClient(ApiextensionsV1Api)

// The informer under test, restarted from its error handler with a backoff (the client's informer
// does not restart itself after an error), unless the test is stopping.
let stopping = false
let informerErrors = 0
let consecutiveErrors = 0
let restartTimer: NodeJS.Timeout | undefined
const updates: Widget[] = []
const informer = makeInformer<Widget>(kc, `/apis/${group}/${version}/namespaces/${namespace}/${plural}`,
  () => customObjects.listNamespacedCustomObject({ group, version, namespace, plural }) as Promise<KubernetesListObject<Widget>>)
informer.on('add', () => { consecutiveErrors = 0 })
informer.on('update', (obj) => { consecutiveErrors = 0; updates.push(obj) })
informer.on('error', () => {
  informerErrors++
  if (stopping || restartTimer) return
  const delay = Math.min(100 * 2 ** consecutiveErrors++, 2000)
  restartTimer = setTimeout(() => {
    restartTimer = undefined
    if (!stopping) informer.start().catch(() => {})
  }, delay)
})

t.teardown(async () => {
  stopping = true
  clearTimeout(restartTimer)
  await informer.stop()
  await cp.stop()
})

t.test('control plane is a real, version-stamped Kubernetes', async (t) => {
  t.ok(cp.startupMs < 60_000, `ready in ${cp.startupMs} ms`)
  const res = await cp.kubectl(['version', '--output=json'])
  t.equal(res.code, 0, res.stderr)
  const versions = JSON.parse(res.stdout)
  t.match(versions.serverVersion.gitVersion, /^v1\.\d+\.\d+/, 'server version is stamped')
  t.match(versions.clientVersion.gitVersion, /^v1\.\d+\.\d+/, 'kubectl version is stamped')
  t.comment(`kube-apiserver ${versions.serverVersion.gitVersion}, kubectl ${versions.clientVersion.gitVersion}`)
})

t.test('kubectl applies a CRD and an object; the CRD becomes Established and served', async (t) => {
  const crdFile = join(cp.dir, 'crd.yaml')
  await writeFile(crdFile, stringify(crd))
  const applied = await cp.kubectl(['apply', '-f', crdFile])
  t.equal(applied.code, 0, applied.stderr)
  t.match(applied.stdout, `customresourcedefinition.apiextensions.k8s.io/${plural}.${group}`)

  await until('CRD Established', async () => {
    const current = await apiextensions.readCustomResourceDefinition({ name: `${plural}.${group}` })
    return current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') || undefined
  })
  await until('CRD served (discovery)', async () => {
    const resources = await customObjects.getAPIResources({ group, version })
    return resources.resources.some((r) => r.name === plural) || undefined
  })

  const objectFile = join(cp.dir, 'widget.yaml')
  await writeFile(objectFile, stringify(widget(name, { size: 3, color: 'blue' })))
  const created = await cp.kubectl(['apply', '-f', objectFile])
  t.equal(created.code, 0, created.stderr)
  t.match(created.stdout, `widget.${group}/${name} created`)
})

t.test('the informer sees a status update made through the status subresource', async (t) => {
  await informer.start()
  const listed = await until('informer lists the widget', () => informer.get(name, namespace))
  t.equal(listed.spec.size, 3)

  // The status subresource ignores spec changes and does not bump the generation.
  const patched = await customObjects.patchNamespacedCustomObjectStatus(
    { group, version, namespace, plural, name, body: { spec: { size: 99 }, status: { phase: 'Ready', observedSize: 3 } }, fieldManager: 'harness-test' },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch)) as Widget
  t.equal(patched.status?.phase, 'Ready')
  t.equal(patched.spec.size, 3, 'spec is not writable through /status')
  t.equal(patched.metadata?.generation, 1, 'a status write does not bump the generation')

  const seen = await until('informer update with phase Ready', () => updates.find((w) => w.status?.phase === 'Ready'))
  t.equal(seen.metadata?.resourceVersion, patched.metadata?.resourceVersion)
  t.equal(informer.get(name, namespace)?.status?.phase, 'Ready')
})

t.test('the informer survives an apiserver restart', async (t) => {
  const errorsBefore = informerErrors
  await cp.restartApiServer()
  t.ok(informerErrors > errorsBefore, `the watch broke during the restart (${informerErrors - errorsBefore} informer errors)`)

  const patched = await customObjects.patchNamespacedCustomObjectStatus(
    { group, version, namespace, plural, name, body: { status: { phase: 'Restarted' } }, fieldManager: 'harness-test' },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch)) as Widget
  const seen = await until('informer update with phase Restarted', () => updates.find((w) => w.status?.phase === 'Restarted'))
  t.equal(seen.metadata?.resourceVersion, patched.metadata?.resourceVersion)
  t.equal(seen.status?.observedSize, 3, 'earlier status fields survive (etcd kept the data)')

  const got = await cp.kubectl(['get', `${plural}.${group}`, name, '--output=jsonpath={.status.phase}'])
  t.equal(got.code, 0, got.stderr)
  t.equal(got.stdout, 'Restarted')
})

t.test('the apiserver enforces the CRD schema', async (t) => {
  const tooLong = await customObjects.createNamespacedCustomObject({
    group, version, namespace, plural, body: widget('too-long', { size: 1, color: 'ultraviolet' })
  }).then(() => undefined, apiError)
  t.equal(tooLong?.code, 422, 'maxLength violation is rejected')
  t.match(tooLong?.message, /spec\.color/, tooLong?.message ?? 'accepted')

  const wrongType = await customObjects.createNamespacedCustomObject({
    group, version, namespace, plural, body: widget('wrong-type', { size: 'big' })
  }).then(() => undefined, apiError)
  t.equal(wrongType?.code, 422, 'type violation is rejected')
  t.match(wrongType?.message, /spec\.size/, wrongType?.message ?? 'accepted')

  const invalidFile = join(cp.dir, 'invalid.yaml')
  await writeFile(invalidFile, stringify(widget('too-small', { size: 0 })))
  const applied = await cp.kubectl(['apply', '-f', invalidFile])
  t.not(applied.code, 0, 'kubectl apply of an invalid object fails')
  t.match(applied.stderr, /spec\.size/)
})
