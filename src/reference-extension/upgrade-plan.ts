// GenerateUpgradePlan of the reference extension: one control plane step per minor version between the
// current version (excluded) and the target (included): v1.<minor>.0 for the minors in between, then the
// target itself; none once the control plane is at the target (Cluster API keeps asking while the workers
// catch up). No workers plan: Cluster API then computes the fewest worker steps the skew policy allows.
import { GenerateUpgradePlan } from '../api/hooks/v1alpha1/index.js'
import { defineHandler, type ExtensionHandler } from '../server/types.js'
import { HookError } from '../server/errors.js'

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/

function parse (field: string, version: string): [number, number, number] {
  const m = SEMVER.exec(version)
  if (!m) throw new HookError(`${field} ${JSON.stringify(version)} is not a semantic version like v1.33.0`)
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}

/** The control plane steps from `from` to `to`. */
export function planUpgrade (from: string, to: string): string[] {
  const [fromMajor, fromMinor, fromPatch] = parse('fromControlPlaneKubernetesVersion', from)
  const [toMajor, toMinor, toPatch] = parse('toKubernetesVersion', to)
  if (from.replace(/^v/, '') === to.replace(/^v/, '')) return []
  if (fromMajor !== toMajor) throw new HookError(`cannot plan an upgrade from ${from} to ${to}: the major version changes`)
  if (toMinor < fromMinor || (toMinor === fromMinor && toPatch <= fromPatch)) throw new HookError(`cannot plan an upgrade from ${from} to ${to}: the target is not newer`)
  const steps: string[] = []
  for (let minor = fromMinor + 1; minor < toMinor; minor++) steps.push(`v${toMajor}.${minor}.0`)
  steps.push(to)
  return steps
}

export function upgradePlanHandlers (): ExtensionHandler[] {
  return [defineHandler({
    hook: GenerateUpgradePlan,
    name: 'generate-upgrade-plan',
    handler: (request) => ({
      status: 'Success' as const,
      controlPlaneUpgrades: planUpgrade(request.fromControlPlaneKubernetesVersion ?? '', request.toKubernetesVersion ?? '').map(version => ({ version }))
    })
  })]
}
