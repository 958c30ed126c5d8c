// Every kustomize base under deploy/, applied alone to a fresh real control plane: it applies, or it fails with
// the message its kustomization.yaml says it will (what it needs first). The image is set in one place.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { parse, parseAllDocuments } from 'yaml'
import { startControlPlane } from '../../tools/harness/control-plane.js'

const root = join(import.meta.dirname, '..', '..')
const deploy = join(root, 'deploy')
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string }

// What each base needs when applied alone; its kustomization.yaml says so in the words kubectl uses.
const needs: Record<string, { error: RegExp, documented: RegExp }> = {
  samples: { error: /ensure CRDs are installed first/, documented: /Needs the ExtensionConfig CRD first/ },
  'cert-manager': { error: /no matches for kind "(Certificate|Issuer)"/, documented: /Needs cert-manager installed/ },
  default: { error: /no matches for kind "(Certificate|Issuer)"|ensure CRDs are installed first/, documented: /Needs cert-manager, and the CRD applied first/ },
  observability: { error: /no matches for kind "PrometheusRule"|namespaces "runtime-sdk-system" not found/, documented: /Needs the Prometheus Operator's CRDs first/ }
}

const entries = await readdir(deploy, { withFileTypes: true })
const bases = entries.filter(e => e.isDirectory()).map(e => e.name).sort()
const kustomization = async (base: string) => parse(await readFile(join(deploy, base, 'kustomization.yaml'), 'utf8')) as { kind: string, images?: unknown[] }

t.test('the image is set once, in the deploy/image component, at the package version', async t => {
  const withImages = []
  for (const base of bases) if ((await kustomization(base)).images) withImages.push(base)
  t.same(withImages, ['image'])
  t.match((await kustomization('image')), { kind: 'Component', images: [{ name: 'runtime-sdk', newName: 'runtime-sdk', newTag: pkg.version }] })
})

for (const base of bases) {
  t.test(`deploy/${base} alone on a fresh control plane`, async t => {
    const text = await readFile(join(deploy, base, 'kustomization.yaml'), 'utf8')
    if ((parse(text) as { kind: string }).kind === 'Component') {
      t.match(text, /The one place the runtime-sdk image is set/, 'a component, included by the bases that run the image')
      return
    }
    const cp = await startControlPlane()
    t.teardown(() => cp.stop())
    const applied = await cp.kubectl(['apply', '--server-side', '-k', join(deploy, base)])
    const need = needs[base]
    if (need) {
      t.not(applied.code, 0, 'needs another base first')
      t.match(applied.stderr, need.error)
      t.match(text, need.documented, 'and says so')
      return
    }
    t.equal(applied.code, 0, applied.stderr)
    const rendered = await cp.kubectl(['kustomize', join(deploy, base)])
    const objects = parseAllDocuments(rendered.stdout).map(d => d.toJSON() as { kind: string, metadata: { name: string, namespace?: string } })
    for (const o of objects) {
      const got = await cp.kubectl(['get', o.kind, o.metadata.name, ...(o.metadata.namespace ? ['-n', o.metadata.namespace] : []), '-o', 'name'])
      t.equal(got.code, 0, `${o.kind} ${o.metadata.name} exists`)
    }
  })
}
