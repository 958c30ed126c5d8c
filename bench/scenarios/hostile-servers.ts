// Scenario 7's servers: how each is started and what its healthy client asks. The project's four servers come from
// src/http's one builder; Cluster API's Go server is the extension server's peer.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildCapiInterop } from '../../tools/harness/capi-interop.js'
import { ensureBuilt } from '../lib/build.js'
import { nodeScript, type ScenarioContext } from '../lib/context.js'
import { HOSTILE_SERVERS } from '../lib/ids.js'
import { asInImage, cliCommand } from '../lib/shipped.js'

export interface HostileServer {
  /** key of its case ids (HOSTILE_SERVERS, or capi-go). */
  key: string
  label: string
  tls: boolean
  /** request: the healthy client's call, its path relative to the server's URL; a POST of bodyFile, else a GET. */
  request: { path: string, bodyFile?: string, headers?: Record<string, string>, label: string }
  /** command starts it; undefined when it cannot be had here (unavailable says why). */
  command: () => Promise<string[] | undefined>
  unavailable?: string
  /** readyLine matches the line of its stderr that says it listens, the URL in group 1 (else a JSON line with a url). */
  readyLine?: RegExp
  /** probed: whether its closing of idle sockets is measured (Go's server has no such timeout, so closes none). */
  probed: boolean
}

/** A ConversionReview of one ExtensionConfig, v1beta2 to v1alpha1, as the API server sends. */
const conversionReview = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'ConversionReview',
  request: {
    uid: 'bench',
    desiredAPIVersion: 'runtime.cluster.x-k8s.io/v1alpha1',
    objects: [{
      apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
      kind: 'ExtensionConfig',
      metadata: { name: 'bench', uid: 'bench-uid' },
      spec: { clientConfig: { url: 'https://extension.example.com' }, namespaceSelector: {} }
    }]
  }
}

/** The servers in the order they are measured; hook is the extension servers' healthy call. */
export function hostileServers (ctx: ScenarioContext, hook: HostileServer['request']): HostileServer[] {
  const tlsFiles = ['--tls-cert-file', join(ctx.certDir, 'tls.crt'), '--tls-private-key-file', join(ctx.certDir, 'tls.key')]
  const emptyDir = () => mkdtempSync(join(ctx.workDir, 'hostile-extension-configs-'))
  const conversionFile = join(ctx.workDir, 'conversion-review.json')
  writeFileSync(conversionFile, JSON.stringify(conversionReview))
  const statusRequest = { path: '/extensionconfigs', label: 'GET /extensionconfigs' }
  return [
    {
      key: 'ours',
      label: 'runtime-sdk serve (reference extension)',
      tls: HOSTILE_SERVERS.ours.tls,
      request: hook,
      readyLine: /^serving .* at (https:\/\/\S+)$/,
      probed: true,
      command: async () => {
        ensureBuilt()
        return cliCommand('serve', ['--port', '0', '--host', '127.0.0.1', '--log-level', 'warn', ...tlsFiles])
      }
    },
    {
      key: 'capi-go',
      label: 'Cluster API Go server',
      tls: true,
      request: hook,
      probed: false,
      unavailable: 'not available (go is needed for the Go server)',
      command: async () => {
        const bin = await buildCapiInterop().catch(() => undefined)
        return bin === undefined ? undefined : [join(bin, 'extension'), '--port', '0', '--cert-dir', mkdtempSync(join(ctx.workDir, 'hostile-go-'))]
      }
    },
    {
      key: 'controller',
      label: 'runtime-sdk controller endpoint (plain HTTP)',
      tls: HOSTILE_SERVERS.controller.tls,
      request: statusRequest,
      // The CLI logs where it serves at info level, as JSON.
      readyLine: /"url":"(http:\/\/[^"]+)".*"msg":"serving status/,
      probed: true,
      command: async () => {
        ensureBuilt()
        return cliCommand('controller', ['--extension-configs', emptyDir(), '--metrics-port', '0', '--log-level', 'info'])
      }
    },
    {
      key: 'controller-secure',
      label: 'controller endpoint, --metrics-secure (bench/servers/secure-endpoint.ts)',
      tls: HOSTILE_SERVERS['controller-secure'].tls,
      // A scraper's call: its token is reviewed once, then the answers are cached.
      request: { ...statusRequest, headers: { authorization: 'Bearer bench' }, label: 'GET /extensionconfigs, bearer token' },
      probed: true,
      command: async () => [...asInImage(nodeScript('servers/secure-endpoint.ts'), 'controller'), '--cert-dir', ctx.certDir, '--dir', emptyDir()]
    },
    {
      key: 'webhook',
      label: 'conversion webhook (bench/servers/webhook.ts)',
      tls: HOSTILE_SERVERS.webhook.tls,
      request: { path: '/convert', bodyFile: conversionFile, headers: { 'content-type': 'application/json' }, label: 'POST /convert, 1 ExtensionConfig' },
      probed: true,
      command: async () => [...asInImage(nodeScript('servers/webhook.ts'), 'controller'), '--cert-dir', ctx.certDir]
    }
  ]
}
