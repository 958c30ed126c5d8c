// Our server is measured as users run it: the built CLI. The build is redone when dist/ is missing or older than src/.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { repoRoot } from './context.js'

function newestMtime (dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** The built CLI, as the package's bin runs it. */
export const CLI = join(repoRoot, 'dist/src/cli/main.js')

let checked = false

export function ensureBuilt (): void {
  if (checked) return
  checked = true
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= newestMtime(join(repoRoot, 'src'))) return
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: repoRoot, stdio: 'inherit' })
  if (build.status !== 0) throw new Error('npm run build failed')
}

const OTEL_API_IMPORT = "from '@opentelemetry/api';"

/**
 * The built CLI without tracing: a copy of dist/ whose tracing module imports bench/servers/otel-api-absent.mjs (the
 * API's names doing nothing) instead of @opentelemetry/api. Kept under node_modules/ so the copy resolves the same
 * packages. Scenario 2's `ours-untraced`: what tracing costs the hook path when it is off.
 */
export function untracedCli (): string {
  ensureBuilt()
  const root = join(repoRoot, 'node_modules/.cache/runtime-sdk-bench/untraced')
  rmSync(root, { recursive: true, force: true })
  cpSync(join(repoRoot, 'dist'), join(root, 'dist'), { recursive: true })
  const tracing = join(root, 'dist/src/telemetry/trace.js')
  const text = readFileSync(tracing, 'utf8')
  if (!text.includes(OTEL_API_IMPORT)) throw new Error(`${tracing} no longer imports @opentelemetry/api as the bench expects`)
  const absent = pathToFileURL(join(repoRoot, 'bench/servers/otel-api-absent.mjs')).href
  writeFileSync(tracing, text.replace(OTEL_API_IMPORT, `from '${absent}';`))
  return join(root, 'dist/src/cli/main.js')
}
