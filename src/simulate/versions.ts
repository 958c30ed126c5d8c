// Kubernetes versions and upgrade plans as Cluster API computes them (exp/topology/desiredstate/upgrade_plan.go):
// the plan from the ClusterClass's kubernetesVersions or one minor at a time when no extension plans, and the
// defaulting and checks every plan goes through (the workers' steps Cluster API adds to respect the version skew).
import { SimulationFailure } from './timeline.js'

interface SemVer { major: number, minor: number, patch: number, pre: string }

/** semver.ParseTolerant's core: `v1.33.0`, `1.33.0`, `v1.33.0-rc.1+build`. */
export function parseVersion (version: string): SemVer | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(version.trim())
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ?? '' } : undefined
}

/** Compares two versions: negative, 0 or positive. */
export function compareKubernetesVersions (a: string, b: string): number {
  const x = parseVersion(a)
  const y = parseVersion(b)
  if (!x || !y) return a.localeCompare(b)
  return x.major - y.major || x.minor - y.minor || x.patch - y.patch || (x.pre === y.pre ? 0 : x.pre === '' ? 1 : y.pre === '' ? -1 : x.pre.localeCompare(y.pre))
}

const minorOf = (v: string) => parseVersion(v)?.minor ?? 0

/** GetUpgradePlanOneMinor: the target itself, at most one minor away. */
export function oneMinorPlan (desired: string, controlPlane: string): string[] {
  if (compareKubernetesVersions(desired, controlPlane) === 0) return []
  if (minorOf(desired) > minorOf(controlPlane) + 1) throw new SimulationFailure(`cannot compute an upgrade plan from ${controlPlane} to ${desired}: without an upgrade plan extension or spec.kubernetesVersions Cluster API upgrades one minor at a time`)
  return [desired]
}

/** GetUpgradePlanFromClusterClassVersions: the latest listed version of every minor up to the target. */
export function classVersionsPlan (versions: readonly string[], desired: string, controlPlane: string): string[] {
  if (compareKubernetesVersions(desired, controlPlane) === 0) return []
  const plan: string[] = []
  for (let minor = minorOf(controlPlane); minor <= minorOf(desired); minor++) {
    const candidates = versions.filter(v => minorOf(v) === minor && compareKubernetesVersions(v, controlPlane) > 0 && compareKubernetesVersions(v, desired) <= 0)
    const latest = minor === minorOf(desired) ? desired : candidates.sort(compareKubernetesVersions).at(-1)
    if (latest !== undefined && !plan.includes(latest)) plan.push(latest)
  }
  return plan
}

/** DefaultAndValidateUpgradePlans: checks the control plane plan, and gives the workers their plan when none is given. */
export function defaultAndValidatePlans (desired: string, controlPlane: string, minWorkers: string, cpPlan: readonly string[], workersPlan: readonly string[]): string[] {
  const fail = (m: string) => { throw new SimulationFailure(`GenerateUpgradePlan: invalid upgrade plan: ${m}`) }
  if (compareKubernetesVersions(controlPlane, desired) !== 0) {
    let current = controlPlane
    cpPlan.forEach((v, i) => {
      if (compareKubernetesVersions(v, current) <= 0) fail(`ControlPlane item ${i}: version ${v} must be greater than ${current}`)
      if (minorOf(v) !== minorOf(current) && minorOf(v) !== minorOf(current) + 1) fail(`ControlPlane item ${i}: expecting a version with minor ${minorOf(current)} or ${minorOf(current) + 1}, found version ${v}`)
      current = v
    })
    if (compareKubernetesVersions(current, desired) !== 0) fail(`control plane upgrade plan must end with version ${desired}, ends with ${current} instead`)
  } else if (cpPlan.length > 0) {
    fail('control plane is already at the desired version')
  }
  if (minWorkers === '' || compareKubernetesVersions(minWorkers, desired) === 0) {
    if (workersPlan.length > 0) fail('there are no workers or workers already at the desired version')
    return []
  }
  const plan = [...workersPlan]
  if (plan.length === 0) {
    const minors = new Map([[minorOf(controlPlane), controlPlane], ...cpPlan.map(v => [minorOf(v), v] as const)])
    for (let i = 1; i < minorOf(desired) - minorOf(minWorkers); i++) {
      if (i % 3 === 0) plan.push(minors.get(minorOf(minWorkers) + i) ?? fail(`unable to identify version for minor ${minorOf(minWorkers) + i}`))
    }
    if (plan.at(-1) !== desired) plan.push(desired)
  }
  let current = minWorkers
  plan.forEach((v, i) => {
    if (compareKubernetesVersions(v, current) <= 0) fail(`workers item ${i}: version ${v} must be greater than ${current}`)
    if (minorOf(v) - minorOf(current) > 3) fail(`workers item ${i}: workers cannot go from minor ${minorOf(current)} to minor ${minorOf(v)}, an intermediate step is required to comply with Kubernetes version skew rules`)
    current = v
  })
  if (compareKubernetesVersions(current, desired) !== 0) fail(`workers upgrade plan must end with version ${desired}, ends with ${current} instead`)
  return plan
}
