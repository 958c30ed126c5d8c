// Identities of hooks and the HTTP paths they are served at.

/** GroupVersionHook identifies one version of a hook. */
export interface GroupVersionHook {
  /** group is the hook's API group, e.g. hooks.runtime.cluster.x-k8s.io. */
  group: string
  /** version is the API version, e.g. v1alpha1. */
  version: string
  /** hook is the hook's name, e.g. BeforeClusterCreate. */
  hook: string
}

/** Formats a GVH the way Cluster API does in errors: `<group>/<version>, Hook=<hook>`. */
export function gvhString ({ group, version, hook }: GroupVersionHook): string {
  return `${group}/${version}, Hook=${hook}`
}

/** Formats a group and hook the way Cluster API does in errors: `<hook>.<group>`. */
export function groupHookString ({ group, hook }: { group: string, hook: string }): string {
  return `${hook}.${group}`
}

export function apiVersionOf ({ group, version }: { group: string, version: string }): string {
  return group ? `${group}/${version}` : version
}

/** Splits an apiVersion into group and version like Kubernetes does: no slash means the core group. */
export function parseApiVersion (apiVersion: string): { group: string, version: string } {
  const parts = apiVersion.split('/')
  if (parts.length === 1) return { group: '', version: parts[0] ?? '' }
  if (parts.length === 2 && parts[0] && parts[1]) return { group: parts[0], version: parts[1] }
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`)
}

/**
 * The path a handler is served at: `/<group>/<version>/<lowercase hook>[/<lowercase name>]`.
 * Discovery (a singleton) has no name segment.
 */
export function hookPath (gvh: GroupVersionHook, name?: string): string {
  const base = `/${gvh.group}/${gvh.version}/${gvh.hook.toLowerCase()}`
  return name ? `${base}/${name.toLowerCase()}` : base
}

const VERSION_PATTERN = /^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$/

export function isKubeVersion (version: string): boolean {
  return VERSION_PATTERN.test(version)
}

/**
 * Orders API versions by Kubernetes priority, newest first: GA before beta before alpha,
 * higher major first, then higher minor (v2 > v1 > v1beta2 > v1beta1 > v1alpha2 > v1alpha1).
 * Returns a negative number when `a` is newer than `b`.
 */
export function compareVersions (a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = VERSION_PATTERN.exec(v)
    if (!m) return [3, 0, 0]
    const stability = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2
    return [stability, -Number(m[1]), -Number(m[3] ?? 0)]
  }
  const [ra, rb] = [rank(a), rank(b)]
  for (let i = 0; i < 3; i++) {
    const d = (ra[i] as number) - (rb[i] as number)
    if (d !== 0) return d
  }
  return a < b ? -1 : a > b ? 1 : 0
}
