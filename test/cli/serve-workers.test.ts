// `runtime-sdk serve --workers 2`: several processes on one port, one certificate, one /metrics, one shutdown.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { API, call } from '../helpers/server.js'

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))
const certDir = t.testdir()
const child = spawn(process.execPath, [...process.execArgv, MAIN, 'serve', '--workers', '2', '--port', '0', '--cert-dir', certDir, '--log-level', 'warn'], { stdio: ['ignore', 'ignore', 'pipe'] })
const killer = setTimeout(() => child.kill('SIGKILL'), 60_000)
t.teardown(() => { clearTimeout(killer); child.kill('SIGKILL') })
let stderr = ''
child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
const url = await new Promise<string>((resolve, reject) => {
  child.stderr.on('data', () => {
    const found = /workers serve (https:\/\/\S+);/.exec(stderr)?.[1]
    if (found) resolve(found)
  })
  child.on('exit', code => reject(new Error(`serve exited with ${code}: ${stderr}`)))
})
const ca = readFileSync(join(certDir, 'ca.crt'), 'utf8')
const body = JSON.stringify({ kind: 'BeforeClusterCreateRequest', apiVersion: API, cluster: { metadata: { name: 'c1', namespace: 'default' }, spec: { topology: { classRef: { name: 'quick-start' }, version: 'v1.33.0' } } } })

t.test('every worker serves the hooks with the one certificate; /metrics counts the calls of all of them', async (t) => {
  // A fresh connection per call: node:cluster hands connections to the workers in turn.
  const replies = await Promise.all(Array.from({ length: 8 }, () => call(url, `/${API}/beforeclustercreate/before-cluster-create`, body, { ca })))
  t.same(replies.map(r => r.json.status), Array(8).fill('Success'))
  const metrics = await call(url, '/metrics', undefined, { method: 'GET', ca })
  t.match(metrics.text, /runtime_sdk_extension_requests_total\{hook="BeforeClusterCreate",handler="before-cluster-create",status="Success"\} 8\n/)
  t.equal(stderr.match(/serving the reference extension/g)?.length, 1, 'the banner is printed once')
})

t.test('SIGTERM stops the workers, then the primary exits 0', async (t) => {
  const exited = new Promise<number | null>(resolve => child.on('exit', resolve))
  child.kill('SIGTERM')
  t.equal(await exited, 0)
  t.match(stderr, /SIGTERM: stopping 2 workers/)
})
