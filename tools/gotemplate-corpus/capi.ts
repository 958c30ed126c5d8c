// Every enabledIf and valueFrom.template in Cluster API v1.14.2's own sources and test data (the core module and
// the test module: YAML files, YAML blocks of the book's Markdown, and Go string literals in ValueFrom/EnabledIf
// fields), read from the Go module cache.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parseAllDocuments } from 'yaml'
import { unquote } from '../../src/gotemplate/literals.js'

/** A template found in Cluster API's sources. */
export interface CapiTemplate {
  /** module-relative path and line, e.g. "cluster-api/test@v1.14.2/e2e/data/.../clusterclass-quick-start.yaml". */
  source: string
  kind: 'enabledIf' | 'template'
  template: string
}

const MODULES = ['sigs.k8s.io/cluster-api@v1.14.2', 'sigs.k8s.io/cluster-api/test@v1.14.2']

function modcache (): string {
  return execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim()
}

function files (dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    const st = statSync(p)
    if (st.isDirectory()) files(p, out)
    else if (/\.(ya?ml|md|go)$/.test(name)) out.push(p)
  }
  return out
}

function walk (v: unknown, found: (kind: CapiTemplate['kind'], template: string) => void): void {
  if (Array.isArray(v)) { v.forEach(x => walk(x, found)); return }
  if (v === null || typeof v !== 'object') return
  for (const [k, x] of Object.entries(v)) {
    if (k === 'enabledIf' && typeof x === 'string') found('enabledIf', x)
    if (k === 'valueFrom' && x !== null && typeof x === 'object' && typeof (x as { template?: unknown }).template === 'string') found('template', (x as { template: string }).template)
    walk(x, found)
  }
}

function fromYaml (text: string, found: (kind: CapiTemplate['kind'], template: string) => void): void {
  for (const doc of parseAllDocuments(text, { logLevel: 'silent' })) {
    try {
      walk(doc.toJS({ mapAsMap: false, maxAliasCount: 100 }), found)
    } catch { /* a document that does not convert holds no patches we can read */ }
  }
}

const GO_FIELD = /\b(EnabledIf|Template):\s*(?:ptr\.To\()?("(?:[^"\\\n]|\\.)*"|`[^`]*`)/g

/** Every template, in file order, deduplicated by kind and text (the first source kept). */
export function capiTemplates (): CapiTemplate[] {
  const root = modcache()
  const seen = new Set<string>()
  const out: CapiTemplate[] = []
  for (const module of MODULES) {
    const dir = join(root, module)
    for (const file of files(dir).sort()) {
      const rel = relative(root, file).replace(/^sigs\.k8s\.io\//, '')
      const text = readFileSync(file, 'utf8')
      const found = (kind: CapiTemplate['kind'], template: string): void => {
        const key = `${kind}\0${template}`
        if (seen.has(key)) return
        seen.add(key)
        out.push({ source: rel, kind, template })
      }
      if (file.endsWith('.go')) {
        for (const m of text.matchAll(GO_FIELD)) {
          const before = text.slice(Math.max(0, (m.index ?? 0) - 300), m.index)
          if (m[1] === 'Template' && !/ValueFrom|JSONPatchValue/.test(before)) continue
          const literal = m[2] as string
          const value = literal.startsWith('`') ? literal.slice(1, -1).replaceAll('\r', '') : unquote(literal)
          if (value !== undefined && value !== '') found(m[1] === 'EnabledIf' ? 'enabledIf' : 'template', value)
        }
      } else if (file.endsWith('.md')) {
        for (const block of text.matchAll(/```ya?ml\n([\s\S]*?)```/g)) fromYaml(block[1] as string, found)
      } else if (!/\/crd\//.test(file) && /enabledIf|valueFrom/.test(text)) fromYaml(text, found)
    }
  }
  return out
}
