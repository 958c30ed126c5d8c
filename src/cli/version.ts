// runtime-sdk --version: the package version, the commit it was built from, and the hook versions its catalog serves.
import { existsSync, readFileSync } from 'node:fs'
import { createCatalog } from '../catalog/default.js'

function readJson (url: URL): Record<string, unknown> | undefined {
  return existsSync(url) ? JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown> : undefined
}

/** The package.json of runtime-sdk above this file (dist/src/cli or src/cli). */
function packageJson (): Record<string, unknown> {
  for (let url = new URL('../', import.meta.url); url.pathname !== '/'; url = new URL('../', url)) {
    const pkg = readJson(new URL('package.json', url))
    if (pkg?.['name'] === 'runtime-sdk') return pkg
  }
  return {}
}

export function versionText (): string {
  const commit = readJson(new URL('../build-info.json', import.meta.url))?.['commit']
  const groups = new Map<string, string[]>()
  for (const h of createCatalog().all()) {
    const versions = groups.get(h.gvh.group) ?? []
    if (!versions.includes(h.gvh.version)) versions.push(h.gvh.version)
    groups.set(h.gvh.group, versions)
  }
  return [
    `runtime-sdk ${String(packageJson()['version'] ?? 'unknown')}`,
    `commit: ${typeof commit === 'string' && commit !== '' ? commit : 'unknown'}`,
    ...[...groups].map(([group, versions]) => `hooks: ${group} ${versions.join(', ')}`),
    `node: ${process.version}`
  ].join('\n')
}
