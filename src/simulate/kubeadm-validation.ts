// The checks of the kubeadm providers' validating webhooks that a ClusterClass's patches can trip, with their
// messages: a KubeadmConfigSpec's (bootstrap/kubeadm/webhooks/admission/kubeadmconfig.go Validate, with the
// KubeadmBootstrapFormatIgnition feature gate off as Cluster API ships it) and a KubeadmControlPlane's
// (controlplane/kubeadm/webhooks/admission/kubeadmcontrolplane.go: its spec, the paths an update may change, the
// Kubernetes version one minor at a time). Left out: the CoreDNS migration check (it needs corefile-migration's
// tables) and machine taint validation.
import { type FieldError, forbidden, GoStruct, invalid, required } from '../apiserver/index.js'
import { validateLabelsAndAnnotations } from '../apiserver/objectmeta.js'
import { createMergePatch } from '../topology/merge-patch.js'
import { isObject, type Unstructured } from './objects.js'
import { parseVersion } from './versions.js'

const at = (value: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => isObject(v) ? v[k] : undefined, value)
const str = (value: unknown): string => typeof value === 'string' ? value : ''
const list = (value: unknown): unknown[] => Array.isArray(value) ? value : []
/** A Go struct field is defined (IsDefined) when it is not its zero value. */
const defined = (value: unknown): boolean => isObject(value) ? Object.values(value).some(defined) : value !== undefined && value !== null && value !== '' && value !== 0 && value !== false && !(Array.isArray(value) && value.length === 0)

const FILE = ['path', 'owner', 'permissions', 'encoding', 'append', 'content', 'contentFrom', 'contentFormat']
const USER = ['name', 'gecos', 'groups', 'homeDir', 'inactive', 'shell', 'passwd', 'passwdFrom', 'primaryGroup', 'lockPassword', 'sudo', 'sshAuthorizedKeys']
const SOURCE = { contentFrom: ['secret'], passwdFrom: ['secret'], secret: ['name', 'key'] }
const IGNITION_GATE_OFF = 'can be set only if the KubeadmBootstrapFormatIgnition feature gate is enabled'

/** A file's or user's `…From.secret` names its secret and key. */
function secretSourceErrors (source: unknown, path: string): FieldError[] {
  if (!defined(source)) return []
  return [
    ...(str(at(source, 'secret', 'name')) === '' ? [required(`${path}.secret.name`, 'secret file source must specify non-empty secret name')] : []),
    ...(str(at(source, 'secret', 'key')) === '' ? [required(`${path}.secret.key`, 'secret file source must specify non-empty secret key')] : [])
  ]
}

function fileErrors (spec: unknown, prefix: string): FieldError[] {
  const errors: FieldError[] = []
  const known = new Set<string>()
  list(at(spec, 'files')).forEach((file, i) => {
    const path = `${prefix}.files[${i}]`
    const value = () => new GoStruct(isObject(file) ? file : {}, FILE, SOURCE)
    if (str(at(file, 'content')) !== '' && defined(at(file, 'contentFrom'))) errors.push(invalid(path, value(), 'only one of content or contentFrom may be specified for a single file'))
    errors.push(...secretSourceErrors(at(file, 'contentFrom'), `${path}.contentFrom`))
    const filePath = str(at(file, 'path'))
    if (known.has(filePath)) errors.push(invalid(`${path}.path`, value(), 'path property must be unique among all files'))
    known.add(filePath)
  })
  return errors
}

function userErrors (spec: unknown, prefix: string): FieldError[] {
  return list(at(spec, 'users')).flatMap((user, i) => [
    ...(str(at(user, 'passwd')) !== '' && defined(at(user, 'passwdFrom')) ? [invalid(`${prefix}.users[${i}]`, new GoStruct(isObject(user) ? user : {}, USER, SOURCE), 'only one of passwd or passwdFrom may be specified for a single user')] : []),
    ...secretSourceErrors(at(user, 'passwdFrom'), `${prefix}.users[${i}].passwdFrom`)
  ])
}

function diskSetupErrors (spec: unknown, prefix: string): FieldError[] {
  return list(at(spec, 'diskSetup', 'partitions')).flatMap((partition, i) => {
    const total = list(at(partition, 'diskLayout')).reduce<number>((n, l) => n + (Number(at(l, 'percentage')) || 0), 0)
    return total > 100 ? [invalid(`${prefix}.diskSetup.partitions[${i}].diskLayout`, total, 'the sum of all partition percentages must not be greater than 100')] : []
  })
}

/** Validate(KubeadmConfigSpec, isKCP, path). */
export function kubeadmConfigSpecErrors (spec: unknown, isKCP: boolean, prefix: string): FieldError[] {
  const errors = [...fileErrors(spec, prefix), ...userErrors(spec, prefix)]
  if (at(spec, 'format') === 'ignition') errors.push(forbidden(`${prefix}.format`, IGNITION_GATE_OFF))
  if (defined(at(spec, 'ignition'))) errors.push(forbidden(`${prefix}.ignition`, IGNITION_GATE_OFF))
  errors.push(...diskSetupErrors(spec, prefix))
  const user = at(spec, 'joinConfiguration', 'discovery', 'file', 'kubeConfig', 'user')
  if (defined(at(spec, 'joinConfiguration')) && defined(at(user, 'authProvider')) && defined(at(user, 'exec'))) {
    errors.push(invalid(`${prefix}.joinConfiguration.discovery.file.kubeconfig.user`, new GoStruct(user as Record<string, unknown>, ['authProvider', 'exec']), 'only one of authProvider or exec must be defined'))
  }
  if (isKCP) {
    const seconds = (c: string) => { const v = at(spec, c, 'timeouts', 'controlPlaneComponentHealthCheckSeconds'); return typeof v === 'number' ? String(v) : 'unset' }
    const [init, join] = [seconds('initConfiguration'), seconds('joinConfiguration')]
    const message = `controlPlaneComponentHealthCheckSeconds must be set to the same value both in initConfiguration.timeouts (${init}) and in joinConfiguration.timeouts (${join})`
    if (init !== join) errors.push(invalid(`${prefix}.initConfiguration.timeouts.controlPlaneComponentHealthCheckSeconds`, init, message), invalid(`${prefix}.joinConfiguration.timeouts.controlPlaneComponentHealthCheckSeconds`, join, message))
  }
  return errors
}

/** container.ImageTagIsValid: letters, digits, `_`, `.` and `-` only. */
const imageTagIsValid = (tag: string) => !/[^-a-zA-Z0-9_.]/.test(tag)

/** validateClusterConfiguration: image tags, local or external etcd (and, on update, not switched). */
function clusterConfigurationErrors (old: unknown, config: unknown, prefix: string): FieldError[] {
  const errors: FieldError[] = []
  const dnsTag = str(at(config, 'dns', 'imageTag'))
  if (!imageTagIsValid(dnsTag)) errors.push(forbidden(`${prefix}.dns.imageTag`, `tag ${dnsTag} is invalid`))
  const local = defined(at(config, 'etcd', 'local'))
  const external = defined(at(config, 'etcd', 'external'))
  const etcdTag = str(at(config, 'etcd', 'local', 'imageTag'))
  if (local && !imageTagIsValid(etcdTag)) errors.push(forbidden(`${prefix}.etcd.local.imageTag`, `tag ${etcdTag} is invalid`))
  if (local && external) errors.push(forbidden(`${prefix}.etcd.local`, 'cannot have both external and local etcd'))
  if (old !== undefined && external !== defined(at(old, 'etcd', 'external'))) errors.push(forbidden(`${prefix}.etcd.external`, 'cannot change between external and local etcd'))
  return errors
}

/** validateRolloutAndCertValidityFields, for what a KubeadmControlPlaneTemplate can set. */
function rolloutErrors (spec: unknown): FieldError[] {
  const strategy = at(spec, 'rollout', 'strategy')
  if (!defined(strategy)) return []
  const errors: FieldError[] = []
  if (at(strategy, 'type') !== 'RollingUpdate') errors.push(required('spec.rollout.strategy.type', 'only RollingUpdate is supported'))
  const maxSurge = at(strategy, 'rollingUpdate', 'maxSurge')
  if (maxSurge !== undefined && maxSurge !== null) {
    const surge = typeof maxSurge === 'number' ? maxSurge : Number.parseInt(String(maxSurge), 10) || 0
    const replicas = at(spec, 'replicas')
    if (surge === 0 && typeof replicas === 'number' && replicas < 3) errors.push(required('spec.rollout.strategy.rollingUpdate', 'when KubeadmControlPlane is configured to scale-in, replica count needs to be at least 3'))
    if (surge !== 0 && surge !== 1) errors.push(required('spec.rollout.strategy.rollingUpdate.maxSurge', 'value must be 1 or 0'))
  }
  return errors
}

/** validateKubeadmControlPlaneSpec. */
function controlPlaneSpecErrors (spec: unknown): FieldError[] {
  const errors: FieldError[] = []
  const replicas = at(spec, 'replicas')
  if (typeof replicas !== 'number') errors.push(required('spec.replicas', 'is required'))
  else if (replicas <= 0) errors.push(forbidden('spec.replicas', 'cannot be less than or equal to 0'))
  if (!defined(at(spec, 'kubeadmConfigSpec', 'clusterConfiguration', 'etcd', 'external')) && typeof replicas === 'number' && replicas % 2 === 0) errors.push(forbidden('spec.replicas', 'cannot be an even number when etcd is stacked'))
  for (const field of ['apiGroup', 'kind', 'name']) {
    const value = str(at(spec, 'machineTemplate', 'spec', 'infrastructureRef', field))
    if (value === '') errors.push(invalid(`spec.machineTemplate.infrastructure.${field}`, value, 'cannot be empty'))
  }
  errors.push(...validateLabelsAndAnnotations('spec.machineTemplate.metadata', at(spec, 'machineTemplate', 'metadata')))
  const version = str(at(spec, 'version'))
  if (!version.startsWith('v')) errors.push(invalid('spec.version', version, 'must start with v'))
  if (!/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(version.replace(/^v/, ''))) errors.push(invalid('spec.version', version, 'must be a valid semantic version'))
  errors.push(...rolloutErrors(spec))
  const template = str(at(spec, 'machineNaming', 'template'))
  if (template !== '' && !template.includes('{{ .random }}')) errors.push(invalid('spec.machineNaming.template', template, 'invalid template, {{ .random }} is missing'))
  return errors
}

/** ValidateCreate. */
export function kubeadmControlPlaneCreateErrors (kcp: Unstructured): FieldError[] {
  const spec = kcp['spec']
  return [
    ...controlPlaneSpecErrors(spec),
    ...clusterConfigurationErrors(undefined, at(spec, 'kubeadmConfigSpec', 'clusterConfiguration'), 'spec.kubeadmConfigSpec.clusterConfiguration'),
    ...kubeadmConfigSpecErrors(at(spec, 'kubeadmConfigSpec'), true, 'spec.kubeadmConfigSpec')
  ]
}

/** The paths a KubeadmControlPlane update may change (ValidateUpdate's allowedPaths; `*` allows what is beneath). */
const ALLOWED_PATHS = [
  'metadata.*',
  ...['etcd', 'etcd.*', 'etcd.local', 'etcd.local.*', 'etcd.external.*', 'dns', 'dns.*', 'imageRepository', 'featureGates', 'featureGates.*', 'apiServer', 'apiServer.*',
    'controllerManager', 'controllerManager.*', 'scheduler', 'scheduler.*', 'certificateValidityPeriodDays', 'encryptionAlgorithm'].map(p => `spec.kubeadmConfigSpec.clusterConfiguration.${p}`),
  ...['nodeRegistration', 'nodeRegistration.*', 'patches.directory', 'patches', 'skipPhases', 'bootstrapTokens', 'localAPIEndpoint', 'localAPIEndpoint.*', 'timeouts', 'timeouts.*'].map(p => `spec.kubeadmConfigSpec.initConfiguration.${p}`),
  ...['nodeRegistration', 'nodeRegistration.*', 'patches.directory', 'patches', 'skipPhases', 'caCertPath', 'controlPlane', 'controlPlane.*', 'discovery', 'discovery.*', 'timeouts', 'timeouts.*'].map(p => `spec.kubeadmConfigSpec.joinConfiguration.${p}`),
  ...['bootCommands', 'preKubeadmCommands', 'postKubeadmCommands', 'files', 'verbosity', 'users', 'ntp', 'ntp.*', 'ignition', 'ignition.*', 'diskSetup', 'diskSetup.*', 'format', 'mounts'].map(p => `spec.kubeadmConfigSpec.${p}`),
  ...['machineTemplate.metadata', 'machineTemplate.metadata.*', 'machineTemplate.spec', 'machineTemplate.spec.*', 'replicas', 'version', 'remediation', 'remediation.*', 'machineNaming', 'machineNaming.*', 'rollout', 'rollout.*'].map(p => `spec.${p}`)
].map(p => p.split('.'))

/** pathsMatch: the allowed path is a prefix of the path ending in `*`, or the path itself (or its last segment missing). */
function pathsMatch (allowed: readonly string[], path: readonly string[]): boolean {
  if (allowed.length === 0 || path.length === 0) return false
  let i = 0
  for (i = 0; i < path.length; i++) {
    if (i > allowed.length - 1) return false
    if (allowed[i] === '*') return true
    if (path[i] !== allowed[i]) return false
  }
  return i - 1 >= allowed.length - 1
}

/** The leaf paths of a merge patch (`paths`): where a value is not an object. */
function changedPaths (diff: unknown, path: string[] = []): string[][] {
  if (!isObject(diff)) return [path]
  return Object.entries(diff).flatMap(([key, value]) => isObject(value) ? changedPaths(value, [...path, key]) : [[...path, key]])
}

/** validateVersion: at most one minor version up. */
function versionErrors (oldVersion: string, newVersion: string): FieldError[] {
  const from = parseVersion(oldVersion)
  const to = parseVersion(newVersion)
  if (!from || !to) return []
  const ceiling = to.major > from.major || (to.major === from.major && to.minor >= from.minor + 2)
  return ceiling ? [forbidden('spec.version', `cannot update Kubernetes version from ${oldVersion} to ${newVersion}`)] : []
}

/** ValidateUpdate: the spec, the paths changed that may not change, the version step, the cluster configuration. */
export function kubeadmControlPlaneUpdateErrors (old: Unstructured, kcp: Unstructured): FieldError[] {
  const spec = kcp['spec']
  const notAllowed = changedPaths(createMergePatch(old, kcp)).filter(p => p.length > 0 && !ALLOWED_PATHS.some(a => pathsMatch(a, p)))
  return [
    ...controlPlaneSpecErrors(spec),
    ...notAllowed.map(p => p.join('.')).sort().map(p => forbidden(p, 'cannot be modified')),
    ...versionErrors(str(at(old, 'spec', 'version')), str(at(spec, 'version'))),
    ...clusterConfigurationErrors(at(old, 'spec', 'kubeadmConfigSpec', 'clusterConfiguration'), at(spec, 'kubeadmConfigSpec', 'clusterConfiguration'), 'spec.kubeadmConfigSpec.clusterConfiguration'),
    ...kubeadmConfigSpecErrors(at(spec, 'kubeadmConfigSpec'), true, 'spec.kubeadmConfigSpec')
  ]
}
