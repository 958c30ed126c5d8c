// Our processes as they are shipped: `serve` with the NODE_OPTIONS of the image (Dockerfile), the controller with
// those of its Deployment, which V8 reads only at start. Node servers compared with ours (the floor) get the image's
// too, so that both run with the same V8 settings.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'
import { CLI } from './build.js'
import { repoRoot } from './context.js'

export interface ShippedNodeOptions {
  /** image: the Dockerfile's `ENV NODE_OPTIONS=...` (every command the image runs, `serve` among them). */
  image: string[]
  /** controller: the NODE_OPTIONS of the controller's container in deploy/controller/deployment.yaml. */
  controller: string[]
}

interface Deployment { kind?: string, spec?: { template?: { spec?: { containers?: Array<{ name: string, env?: Array<{ name: string, value?: string }> }> } } } }

const split = (value: string): string[] => value.split(/\s+/).filter(Boolean)

/** Reads the NODE_OPTIONS of the image and of the controller's Deployment from the files that ship them. */
export function shippedNodeOptions (): ShippedNodeOptions {
  const image = /^ENV NODE_OPTIONS=(.+)$/m.exec(readFileSync(join(repoRoot, 'Dockerfile'), 'utf8'))?.[1]
  if (image === undefined) throw new Error('the Dockerfile sets no NODE_OPTIONS')
  const docs = parseAllDocuments(readFileSync(join(repoRoot, 'deploy/controller/deployment.yaml'), 'utf8')).map(d => d.toJS() as Deployment)
  const container = docs.find(d => d.kind === 'Deployment')?.spec?.template?.spec?.containers?.find(c => c.name === 'controller')
  const controller = container?.env?.find(e => e.name === 'NODE_OPTIONS')?.value
  if (controller === undefined) throw new Error('deploy/controller/deployment.yaml sets no NODE_OPTIONS for the controller')
  return { image: split(image), controller: split(controller) }
}

let shipped: ShippedNodeOptions | undefined
const shippedOnce = (): ShippedNodeOptions => (shipped ??= shippedNodeOptions())

/** `node [shipped options] [nodeFlags] dist/src/cli/main.js <command> <args>`: the built CLI as the image runs it. */
export function cliCommand (command: 'serve' | 'controller', args: string[], nodeFlags: string[] = []): string[] {
  const options = shippedOnce()
  return [process.execPath, ...(command === 'controller' ? options.controller : options.image), ...nodeFlags, CLI, command, ...args]
}

/** The image's NODE_OPTIONS, for Node servers ours is compared with. */
export function imageNodeOptions (): string[] {
  return shippedOnce().image
}
