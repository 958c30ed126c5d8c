// Builds a Go test-infrastructure module under tools/ (through the cached tools/build.sh) for the tests.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
const builds = new Map<string, Promise<string>>()

/** Resolves the directory holding the module's binaries; builds once per process, reuses the cache. */
export function buildGoModule (module: string): Promise<string> {
  let build = builds.get(module)
  if (!build) {
    build = runBuild(module)
    builds.set(module, build)
  }
  return build
}

function runBuild (module: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join(repoRoot, 'tools/build.sh'), module], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
    // A cold build takes minutes: show its progress as it happens, and keep it for the error.
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; process.stderr.write(chunk) })
    child.on('error', reject)
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').pop()?.trim()
      if (code === 0 && last) resolve(last)
      else reject(new Error(`tools/build.sh ${module} failed (exit ${code}):\n${stderr}${stdout}`))
    })
  })
}
