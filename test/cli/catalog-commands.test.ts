import t from 'tap'
import { parse } from 'yaml'
import { hooksOpenAPIDocument } from '../../src/catalog/index.js'
import { runCliHere } from '../helpers/run-cli.js'

t.test('runtime-sdk openapi prints the published document in YAML or JSON', async t => {
  const yaml = await runCliHere(['openapi'])
  t.equal(yaml.code, 0, yaml.stderr)
  t.same(parse(yaml.stdout), hooksOpenAPIDocument())
  const json = await runCliHere(['openapi', '--format', 'json'])
  t.same(JSON.parse(json.stdout), hooksOpenAPIDocument())
  t.same(JSON.parse((await runCliHere(['openapi', '-o', 'json'])).stdout), hooksOpenAPIDocument(), '-o is the flag, --format its old name')
  const bad = await runCliHere(['openapi', '--format', 'xml'])
  t.equal(bad.code, 2)
  t.match(bad.stderr, /Allowed choices are yaml, json/)
})

t.test('runtime-sdk hooks lists every hook with its path', async t => {
  const json = await runCliHere(['hooks', '-o', 'json'])
  t.equal(json.code, 0, json.stderr)
  const rows = JSON.parse(json.stdout) as Array<{ hook: string, blocking: boolean, path: string }>
  t.equal(rows.length, 17)
  t.match(rows.find(r => r.hook === 'BeforeClusterCreate'), { blocking: true, path: '/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/<name>' })
  t.match(rows.find(r => r.hook === 'Discovery'), { blocking: false, path: '/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery' })
  const table = await runCliHere(['hooks'])
  t.match(table.stdout, /^HOOK +API VERSION +BLOCKING +PATH$/m)
  t.match(table.stdout, /^GeneratePatches +hooks\.runtime\.cluster\.x-k8s\.io\/v1alpha1 +no +\/hooks\.runtime\.cluster\.x-k8s\.io\/v1alpha1\/generatepatches\/<name>$/m)
  t.match(table.stdout, /^UpdateMachine +\S+ +yes +\//m)
  t.same(parse((await runCliHere(['hooks', '-o', 'yaml'])).stdout), rows, 'yaml holds what json does')
})
