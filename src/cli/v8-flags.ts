// Imported first by main.ts: V8 settings for the command's processes, each skipped when the same flag is given in
// NODE_OPTIONS or on the command line. Only flags V8 reads while running belong here.
// - WebAssembly kept at its baseline compiler (Liftoff): undici parses HTTP with llhttp compiled to WebAssembly, and
//   after the first call V8 re-compiles it with TurboFan, which takes ~30 MB for a moment and keeps ~7 MB. The
//   controller and the CLI parse a few small answers (discovery, a hook call); Liftoff's code parses them as fast as
//   it matters (bench/, scenario 5).
// - The controller favours memory over speed with --optimize-for-size (an old generation grown in smaller steps,
//   among others): it idles between watch events and discovery calls. `serve` does not: it is measured in requests
//   per second.
// The young generation is not set here: V8 sizes it when the process starts, and --max-semi-space-size given later
// changes nothing. The image (Dockerfile) and the controller's Deployment set it in NODE_OPTIONS.
import { setFlagsFromString } from 'node:v8'

interface V8Flag {
  /** The flag for a command (the first argument that is not an option), or undefined when it takes none. */
  flag: (command: string | undefined) => string | undefined
  /** Parts of flag names that mean the user chose this setting. */
  names: readonly string[]
}

const CONTROLLER = 'controller'

const FLAGS: readonly V8Flag[] = [
  { flag: () => '--liftoff-only', names: ['liftoff', 'tier'] },
  { flag: command => command === CONTROLLER ? '--optimize-for-size' : undefined, names: ['optimize-for-size', 'optimize_for_size'] }
]

/** The flags to set for the command in argv: those neither the command line nor NODE_OPTIONS mention. */
export function defaultV8Flags (argv: readonly string[], execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const command = argv.find(arg => !arg.startsWith('-'))
  const given = [...execArgv, nodeOptions ?? '']
  return FLAGS
    .filter(({ names }) => !given.some(arg => names.some(name => arg.includes(name))))
    .map(({ flag }) => flag(command))
    .filter(flag => flag !== undefined)
}

for (const flag of defaultV8Flags(process.argv.slice(2), process.execArgv, process.env['NODE_OPTIONS'])) setFlagsFromString(flag)
