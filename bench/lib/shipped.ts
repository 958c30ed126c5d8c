// Our processes as they are shipped: `serve` with the NODE_OPTIONS of the image (Dockerfile), the controller with
// those of its Deployment, which V8 reads only at start, and both with the image's GLIBC_TUNABLES, which glibc's
// malloc reads only at start. Node servers compared with ours (the floor) get the image's too, so that all run with
// the same V8 and malloc settings.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'
import { CLI } from './build.js'
import { repoRoot } from './context.js'

export interface ShippedSettings {
  nodeOptions: {
    /** image: the Dockerfile's `ENV NODE_OPTIONS=...` (every command the image runs, `serve` among them). */
    image: string[]
    /** controller: the NODE_OPTIONS of the controller's container in deploy/controller/deployment.yaml. */
    controller: string[]
  }
  /** glibcTunables: the Dockerfile's `ENV GLIBC_TUNABLES=...` (every process the image runs, the controller's too). */
  glibcTunables: string
}

interface Deployment { kind?: string, spec?: { template?: { spec?: { containers?: Array<{ name: string, env?: Array<{ name: string, value?: string }> }> } } } }

const split = (value: string): string[] => value.split(/\s+/).filter(Boolean)

/** Reads the process settings of the image and of the controller's Deployment from the files that ship them. */
export function shippedSettings (): ShippedSettings {
  const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8')
  // The value of an `ENV NAME=value` line, unquoted.
  const env = (name: string): string => {
    const value = new RegExp(`^ENV ${name}=(.+)$`, 'm').exec(dockerfile)?.[1]?.replace(/^"(.*)"$/, '$1')
    if (value === undefined) throw new Error(`the Dockerfile sets no ${name}`)
    return value
  }
  const docs = parseAllDocuments(readFileSync(join(repoRoot, 'deploy/controller/deployment.yaml'), 'utf8')).map(d => d.toJS() as Deployment)
  const container = docs.find(d => d.kind === 'Deployment')?.spec?.template?.spec?.containers?.find(c => c.name === 'controller')
  const controller = container?.env?.find(e => e.name === 'NODE_OPTIONS')?.value
  if (controller === undefined) throw new Error('deploy/controller/deployment.yaml sets no NODE_OPTIONS for the controller')
  return { nodeOptions: { image: split(env('NODE_OPTIONS')), controller: split(controller) }, glibcTunables: env('GLIBC_TUNABLES') }
}

let shipped: ShippedSettings | undefined
const shippedOnce = (): ShippedSettings => (shipped ??= shippedSettings())
/** `env GLIBC_TUNABLES=...`: a command prefix that execs the rest, so the process keeps its PID. */
const imageEnv = (): string[] => ['env', `GLIBC_TUNABLES=${shippedOnce().glibcTunables}`]

/**
 * `env GLIBC_TUNABLES=... node [shipped options] [nodeFlags] dist/src/cli/main.js <command> <args>`: the built CLI as
 * the image runs it (`cli`: another build of it).
 */
export function cliCommand (command: 'serve' | 'controller', args: string[], nodeFlags: string[] = [], cli = CLI): string[] {
  const { nodeOptions } = shippedOnce()
  return [...imageEnv(), process.execPath, ...(command === 'controller' ? nodeOptions.controller : nodeOptions.image), ...nodeFlags, cli, command, ...args]
}

/**
 * A Node command (node first) as the image would run it: its environment and the NODE_OPTIONS of `serve` or of the
 * controller, for servers ours is compared with and for parts of ours the bench serves from its own scripts.
 */
export function asInImage ([node, ...args]: string[], as: 'serve' | 'controller' = 'serve'): string[] {
  const { nodeOptions } = shippedOnce()
  return [...imageEnv(), node as string, ...(as === 'controller' ? nodeOptions.controller : nodeOptions.image), ...args]
}
