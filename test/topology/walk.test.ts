// walkTemplates and validateTemplates: every template with its merged variables, the patches computed from what the
// function changed (applied to the template as received they give exactly the mutated template), Cluster API's
// order of checks and its Failures.
import fc from 'fast-check'
import { applyPatch, type Operation } from 'rfc6902'
import t from 'tap'
import { applyMergePatch } from '../../src/topology/merge-patch.js'
import { GeneratePatches, sampleRequest, ValidateTopology } from '../../src/api/hooks/v1alpha1/index.js'
import type { GeneratePatchesRequest, GeneratePatchesResponse } from '../../src/api/hooks/v1alpha1/types.generated.js'
import { HookError } from '../../src/server/errors.js'
import {
  createTemplatePatch, getString, isKind, templateItems, templateKind, validateTemplates, walkTemplates, type PatchFormat, type TemplateBase, type Unstructured
} from '../../src/topology/index.js'

/** What Cluster API does with an answer's item: decode the patch and apply it to the template as it sent it. */
function applied (original: unknown, item: { patchType: string, patch: string | null }): unknown {
  const patch: unknown = JSON.parse(Buffer.from(item.patch ?? '', 'base64').toString())
  if (item.patchType === 'JSONMergePatch') return applyMergePatch(structuredClone(original), patch)
  const target = structuredClone(original)
  const results = applyPatch(target, patch as Operation[])
  if (results.some(r => r !== null)) throw new Error(`patch does not apply: ${JSON.stringify(results)}`)
  return target
}

interface KCPTemplate extends Unstructured {
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2'
  kind: 'KubeadmControlPlaneTemplate'
  spec?: { template?: { spec?: { kubeadmConfigSpec?: { files?: Array<{ path: string, content?: string }>, preKubeadmCommands?: string[] } } } }
}
const KCP = templateKind<KCPTemplate>('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate')

function request (): GeneratePatchesRequest {
  const req = sampleRequest(GeneratePatches)
  const items = req.items ?? []
  const kcp = items[1]?.object as Record<string, unknown>
  kcp['spec'] = { template: { spec: { kubeadmConfigSpec: { files: [{ path: '/etc/old', content: 'old' }], preKubeadmCommands: ['echo a'] } } } }
  return req
}

for (const patchFormat of ['JSONPatch', 'JSONMergePatch'] as const) {
  t.test(`${patchFormat}: the answer's patches turn each template as sent into the mutated template`, async t => {
    const req = request()
    const mutated: unknown[] = []
    const answer = await walkTemplates(req, (template, { variables, holder }) => {
      if (isKind(template, KCP)) {
        const spec = template.spec?.template?.spec?.kubeadmConfigSpec
        spec?.files?.push({ path: '/etc/registry', content: getString(variables, 'imageRepository') ?? '' })
        spec?.preKubeadmCommands?.splice(0, 1)
        template.metadata!.annotations!['example.com/version~/x'] = getString(variables, 'builtin.controlPlane.version') ?? ''
      } else {
        delete template.metadata?.labels?.['topology.cluster.x-k8s.io/owned']
        template['spec'] = { template: { spec: { created: { deep: [holder.fieldPath] } } } }
      }
      mutated.push(structuredClone(template))
    }, { patchFormat })
    t.equal(answer.status, 'Success')
    t.same(answer.items?.map(i => [i.uid, i.patchType]), req.items?.map(i => [i.uid, patchFormat]), 'one item per template, in order, with its uid')
    for (const [i, item] of (answer.items ?? []).entries()) t.same(applied(req.items?.[i]?.object, item), mutated[i], `item ${i}`)
    const kcp = mutated[1] as KCPTemplate
    t.same(kcp.spec?.template?.spec?.kubeadmConfigSpec?.files?.[1], { path: '/etc/registry', content: 'registry.k8s.io' }, 'global variables reach the template')
    t.equal(kcp.metadata?.annotations?.['example.com/version~/x'], 'v1.33.0', 'item variables (builtin.controlPlane) are merged in')
  })

  t.test(`${patchFormat}: an unchanged template still gets an item, with an empty patch`, async t => {
    const answer = await walkTemplates(request(), () => {}, { patchFormat })
    t.same(answer.items?.map(i => Buffer.from(i.patch ?? '', 'base64').toString()), patchFormat === 'JSONPatch' ? ['[]', '[]'] : ['{}', '{}'])
  })
}

t.test('the template handed over is a copy: the request is not changed', async t => {
  const req = request()
  const before = structuredClone(req)
  await walkTemplates(req, (template) => { template.kind = 'Changed'; template.metadata = {} })
  t.same(req, before)
})

// No key __proto__ here: rfc6902's applyPatch, which this test applies JSON Patches with, sets a prototype for it
// (the patches themselves are right: see the test of __proto__ keys below).
const key = fc.oneof(fc.string(), fc.constantFrom('a', 'b', 'x/y', 'm~n', '~1', '')).filter(k => k !== '__proto__')
const json = fc.letrec(tie => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(),
    fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }))
})).value
const object = fc.dictionary(key, json, { maxKeys: 5, noNullPrototype: true })
/** A second object sharing structure with the first: some keys kept, changed, removed or added at each level. */
const edited = (value: unknown): fc.Arbitrary<unknown> => {
  if (Array.isArray(value)) return fc.oneof(fc.constant(value), fc.array(json, { maxLength: 4 }), fc.constant([...value, 1]), fc.constant(value.slice(1)))
  if (typeof value !== 'object' || value === null) return fc.oneof(fc.constant(value), json)
  const entries = Object.entries(value)
  return fc.tuple(...entries.map(([, v]) => fc.oneof(edited(v), fc.constant(undefined))), object).map(([...parts]) => {
    const added = parts.pop() as Record<string, unknown>
    return { ...Object.fromEntries(entries.map(([k], i) => [k, parts[i]]).filter(([, v]) => v !== undefined)), ...added }
  })
}
const hasNull = (value: unknown): boolean => value === null || (typeof value === 'object' && Object.values(value as object).some(hasNull))

t.test('property: a patch applied to the original gives exactly the mutated object', async t => {
  const pairs = object.chain(a => fc.tuple(fc.constant(a), edited(a)))
  for (const format of ['JSONPatch', 'JSONMergePatch'] as PatchFormat[]) {
    fc.assert(fc.property(pairs, ([a, b]) => {
      // RFC 7386 cannot set a value to null: null means remove.
      if (format === 'JSONMergePatch' && hasNull(b)) return
      const patch = JSON.stringify(createTemplatePatch(a, b, format))
      t.strictSame(applied(a, { patchType: format, patch: Buffer.from(patch).toString('base64') }), b)
    }), { numRuns: 300 })
  }
  t.pass('300 pairs per format')
})

t.test('a key named __proto__ is a key like any other, in both formats', async t => {
  const before = JSON.parse('{"data": {"__proto__": {"a": 1}, "k": 1}}') as unknown
  const after = JSON.parse('{"data": {"__proto__": {"a": 2}, "k": 1, "new": {"__proto__": true}}}') as unknown
  t.same(JSON.stringify(createTemplatePatch(before, after, 'JSONPatch')), JSON.stringify([
    { op: 'replace', path: '/data/__proto__/a', value: 2 },
    { op: 'add', path: '/data/new', value: JSON.parse('{"__proto__": true}') }
  ]))
  t.same(JSON.stringify(createTemplatePatch(before, after, 'JSONMergePatch')), '{"data":{"__proto__":{"a":2},"new":{"__proto__":true}}}')
  t.same(JSON.stringify(applyMergePatch(before, createTemplatePatch(before, after, 'JSONMergePatch'))), JSON.stringify(after))
})

t.test('the mutated template is read as JSON.stringify writes it: undefined left out, toJSON called, NaN as null', async t => {
  const before = JSON.parse('{"spec": {"a": 1, "b": 2, "list": [1, 2], "when": "x"}}') as unknown
  const after = { spec: { a: undefined, b: 2, c: undefined, list: [1, undefined], when: new Date(0) } }
  // A merge patch cannot set null (it removes), so NaN, which JSON writes as null, is a JSON Patch case only.
  for (const [format, mutated] of [['JSONPatch', { spec: { ...after.spec, n: Number.NaN } }], ['JSONMergePatch', after]] as const) {
    const patch = Buffer.from(JSON.stringify(createTemplatePatch(before, mutated, format))).toString('base64')
    const patched = applied(before, { patchType: format, patch })
    t.same(patched, JSON.parse(JSON.stringify(mutated)), `${format}: the patch gives the template as JSON`)
  }
})

t.test('kinds: only templates of those kinds are handed over; failForUnknownTypes makes the others a Failure', async t => {
  const seen: string[] = []
  const answer = await walkTemplates(request(), (template) => { seen.push(template.kind) }, { kinds: [KCP] })
  t.same(seen, ['KubeadmControlPlaneTemplate'])
  t.equal(answer.items?.length, 1, 'skipped templates get no item')
  const strict = await walkTemplates(request(), () => {}, { kinds: [KCP], failForUnknownTypes: true })
  t.same(strict, {
    status: 'Failure',
    message: 'DockerClusterTemplate default/sample-q9v4d (holder Cluster default/sample, spec.infrastructureRef): no kind "DockerClusterTemplate" is registered for version "infrastructure.cluster.x-k8s.io/v1beta2" (the kinds handled: KubeadmControlPlaneTemplate controlplane.cluster.x-k8s.io/v1beta2)'
  })
  const isDocker = (template: TemplateBase): template is TemplateBase & { kind: 'DockerClusterTemplate' } => template.kind.startsWith('Docker')
  t.equal((await walkTemplates(request(), () => {}, { kinds: [isDocker] })).items?.length, 1, 'a type guard picks templates too')
  const nullObject = request()
  nullObject.items![0]!.object = null
  t.equal((await walkTemplates(nullObject, () => {})).items?.length, 1, 'an item without an object is skipped, as Go skips what it cannot decode')
  t.match(await walkTemplates(nullObject, () => {}, { failForUnknownTypes: true }), { status: 'Failure', message: /^template \(holder Cluster default\/sample, spec.infrastructureRef\): no kind "" is registered/ })
})

t.test('a HookError or a variable error is the Failure, naming the template; the walk stops there', async t => {
  let calls = 0
  const answer = await walkTemplates(request(), () => { calls++; throw new HookError('no registry configured') })
  t.same(answer, { status: 'Failure', message: 'DockerClusterTemplate default/sample-q9v4d (holder Cluster default/sample, spec.infrastructureRef): no registry configured' })
  t.equal(calls, 1)
  const wrongType = await walkTemplates(request(), ({ kind }, { variables }) => { if (kind === 'KubeadmControlPlaneTemplate') getString(variables, 'builtin.controlPlane.replicas') })
  t.same(wrongType, { status: 'Failure', message: 'KubeadmControlPlaneTemplate default/sample-cp-7k2px (holder Cluster default/sample, spec.controlPlaneRef): variable "builtin.controlPlane.replicas" is not a string: it is a number' })
})

t.test('any other error is thrown on, named, with the original as its cause (the server answers it generically)', async t => {
  const secret = new Error('connect to https://user:token@vault failed')
  await t.rejects(walkTemplates(request(), async () => { throw secret }), {
    name: 'TemplateMutationError',
    code: 'ERR_RUNTIME_SDK_TEMPLATE_MUTATION',
    message: 'DockerClusterTemplate default/sample-q9v4d (holder Cluster default/sample, spec.infrastructureRef): connect to https://user:token@vault failed',
    cause: secret
  })
})

t.test('Cluster API\'s checks before the function: builtin variables that do not merge, a holder apiVersion it cannot parse', async t => {
  const badBuiltin = request()
  badBuiltin.items![1]!.variables = [{ name: 'builtin', value: 'not an object' }]
  t.match(await walkTemplates(badBuiltin, () => {}), { status: 'Failure', message: /^failed to merge builtin variables/ })
  const badHolder = request()
  badHolder.items![0]!.holderReference.apiVersion = 'a/b/c'
  t.same(await walkTemplates(badHolder, () => {}), { status: 'Failure', message: 'error generating patches - HolderReference apiVersion "a/b/c" is not in valid format: unexpected GroupVersion string: a/b/c' })
})

t.test('the deadline signal reaches the function; an aborted walk stops', async t => {
  const controller = new AbortController()
  let seen: AbortSignal | undefined
  await walkTemplates(request(), (_template, { signal }) => { seen = signal; controller.abort(new Error('deadline')) }, { signal: controller.signal })
    .then(() => t.fail('resolved'), (err: Error) => t.equal(err.message, 'deadline'))
  t.equal(seen, controller.signal)
})

t.test('templateItems: the items of either hook with merged variables', async t => {
  const items = templateItems(sampleRequest(ValidateTopology))
  t.ok(items.length > 0)
  for (const item of items) t.equal((item.variables.builtin as { cluster?: { name?: string } } | undefined)?.cluster?.name, 'sample', 'global builtins on every item')
  t.same(templateItems({ items: null }), [])
})

t.test('validateTemplates: Success, or the first template whose check throws', async t => {
  const req = sampleRequest(ValidateTopology)
  t.same(await validateTemplates(req, () => {}), { status: 'Success' })
  const failed = await validateTemplates(req, (template) => { if (template.kind.endsWith('ControlPlaneTemplate')) throw new HookError('replicas must be odd') })
  t.match(failed, { status: 'Failure', message: /^KubeadmControlPlaneTemplate .*: replicas must be odd$/ })
  t.same(await validateTemplates({ ...req, items: [null] }, () => { throw new Error('not called') }), { status: 'Success' }, 'null items are skipped')
})

t.test('the answer is a valid GeneratePatches response for the catalog', async t => {
  const { createCatalog } = await import('../../src/catalog/default.js')
  const answer: GeneratePatchesResponse = await walkTemplates(request(), (template) => { template.metadata = { ...template.metadata, labels: { a: 'b' } } })
  t.same(createCatalog().validateResponse({ group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1', hook: 'GeneratePatches' }, { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', kind: 'GeneratePatchesResponse', ...answer }), { valid: true })
})
