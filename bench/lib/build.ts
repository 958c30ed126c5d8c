// Our server is measured as users run it: the built CLI. The build is redone when dist/ is missing or older than src/.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
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
