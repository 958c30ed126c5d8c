// Run after tsc by `npm run build`: writes dist/src/build-info.json, the commit the package is built from (with
// -dirty when tracked files differ), read by `runtime-sdk --version`. Outside a git checkout the commit is left empty.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'

const from = (path) => new URL(`../${path}`, import.meta.url)

const git = (...args) => execFileSync('git', args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()
let commit = ''
try {
  commit = git('rev-parse', 'HEAD')
  if (git('status', '--porcelain', '--untracked-files=no') !== '') commit += '-dirty'
} catch {
  commit = ''
}
writeFileSync(from('dist/src/build-info.json'), `${JSON.stringify({ commit })}\n`)
