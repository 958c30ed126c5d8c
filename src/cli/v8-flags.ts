// Imported first by main.ts: V8 settings for the command's processes, each skipped when the same flag is given in
// NODE_OPTIONS or on the command line.
// - A young generation of 4 MB per semi-space instead of Node 20's 16 MB: their garbage is small and short-lived (one
//   hook call, one watch event), so scavenges stay as cheap while the idle process holds ~35 MB less (bench/,
//   scenario 6).
// - WebAssembly kept at its baseline compiler (Liftoff): undici parses HTTP with llhttp compiled to WebAssembly, and
//   after the first call V8 re-compiles it with TurboFan, which takes ~30 MB for a moment and keeps ~7 MB. The
//   controller and the CLI parse a few small answers (discovery, a hook call); Liftoff's code parses them as fast as
//   it matters (bench/, scenario 5).
import { setFlagsFromString } from 'node:v8'

const FLAGS: ReadonlyArray<{ flag: string, names: readonly string[] }> = [
  { flag: '--max-semi-space-size=4', names: ['semi-space-size', 'semi_space_size'] },
  { flag: '--liftoff-only', names: ['liftoff', 'tier'] }
]

/** The flags to set: those neither the command line nor NODE_OPTIONS mention. */
export function defaultV8Flags (execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = [...execArgv, nodeOptions ?? '']
  return FLAGS.filter(({ names }) => !given.some(arg => names.some(name => arg.includes(name)))).map(({ flag }) => flag)
}

for (const flag of defaultV8Flags(process.execArgv, process.env['NODE_OPTIONS'])) setFlagsFromString(flag)
