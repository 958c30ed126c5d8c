// The admission webhooks of Cluster API's own providers that decide what the topology controller can write, run by
// the simulation's API server as kube-apiserver runs them: defaulting before validation, the validating webhook after
// the CRD's schema. KubeadmControlPlane (controlplane/kubeadm/webhooks/admission), KubeadmConfigTemplate
// (bootstrap/kubeadm/webhooks/admission), DevCluster and DevMachineTemplate (CAPD's webhooks). A dry run from the
// topology controller carries topology.cluster.x-k8s.io/dry-run: the KubeadmConfigTemplate webhook then applies the
// defaults of older Cluster API versions.
import { type FieldError, invalid } from '../apiserver/index.js'
import { parseDuration } from '../go/time.js'
import { validateLabelsAndAnnotations } from '../apiserver/objectmeta.js'
import { kubeadmConfigSpecErrors, kubeadmControlPlaneCreateErrors, kubeadmControlPlaneUpdateErrors } from './kubeadm-validation.js'
import { isObject, type JsonObject, type Unstructured } from './objects.js'

/** TopologyDryRunAnnotation: set by the topology controller on its dry runs so webhooks relax immutability. */
export const TOPOLOGY_DRY_RUN_ANNOTATION = 'topology.cluster.x-k8s.io/dry-run'

/** One admission request: the object (changed in place by defaulting), what is stored (on update), a dry run. */
interface AdmissionRequest {
  object: Unstructured
  old?: Unstructured | undefined
  dryRun: boolean
}

/**
 * A webhook that could not decode the object into its Go type (json.Unmarshal's error, e.g. a metav1.Duration that
 * time.ParseDuration refuses): the API server answers `admission webhook "<name>" denied the request: <error>`.
 */
export class WebhookDenied extends Error {
  constructor (readonly webhook: string, message: string) {
    super(message)
  }
}

/** A provider's webhooks for one kind. */
interface ProviderWebhooks {
  /** defaulting is the defaulting webhook's name: the first to decode the object into its Go type. */
  defaulting?: string
  /** durations are the paths of the kind's metav1.Duration fields, which decoding parses with time.ParseDuration. */
  durations?: ReadonlyArray<readonly string[]>
  /** default changes the object in place. */
  default?: (request: AdmissionRequest) => void
  /** validating is the validating webhook's name, as its denial names it. */
  validating?: string
  /** validate returns the field errors that make the webhook deny the request. */
  validate?: (request: AdmissionRequest) => FieldError[]
}

const child = (parent: JsonObject, key: string): JsonObject => {
  if (!isObject(parent[key])) parent[key] = {}
  return parent[key] as JsonObject
}
const at = (value: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => isObject(v) ? v[k] : undefined, value)
const isDryRun = (r: AdmissionRequest) => r.dryRun && r.object.metadata?.annotations?.[TOPOLOGY_DRY_RUN_ANNOTATION] !== undefined

/** KubeadmControlPlane Default: one replica unless set, a `v` before the version, RollingUpdate with maxSurge 1 unless set. */
function defaultKubeadmControlPlane ({ object }: AdmissionRequest): void {
  const spec = child(object, 'spec')
  spec['replicas'] ??= 1
  if (typeof spec['version'] === 'string' && !spec['version'].startsWith('v')) spec['version'] = `v${spec['version']}`
  const strategy = child(child(spec, 'rollout'), 'strategy')
  strategy['type'] = 'RollingUpdate'
  child(strategy, 'rollingUpdate')['maxSurge'] ??= 1
}

/** ApplyPreviousKubeadmConfigDefaults, on the topology controller's dry runs only. */
function defaultKubeadmConfigTemplate (request: AdmissionRequest): void {
  if (!isDryRun(request)) return
  const spec = child(child(child(request.object, 'spec'), 'template'), 'spec')
  if (!spec['format']) spec['format'] = 'cloud-config'
  for (const configuration of ['initConfiguration', 'joinConfiguration']) {
    const registration = child(child(spec, configuration), 'nodeRegistration')
    if (!registration['imagePullPolicy']) registration['imagePullPolicy'] = 'IfNotPresent'
  }
  const exec = at(spec, 'joinConfiguration', 'discovery', 'file', 'kubeConfig', 'user', 'exec')
  if (isObject(exec) && Object.keys(exec).length > 0 && !exec['apiVersion']) exec['apiVersion'] = 'client.authentication.k8s.io/v1'
}

/** validateDevClusterSpec: a docker backend's failure domains sorted by name. */
function validateDevCluster ({ object }: AdmissionRequest): FieldError[] {
  const domains = at(object, 'spec', 'backend', 'docker', 'failureDomains')
  if (!Array.isArray(domains)) return []
  const names = domains.map(fd => String(at(fd, 'name') ?? ''))
  const sorted = [...names].sort((a, b) => a < b ? -1 : a > b ? 1 : 0)
  return names.every((n, i) => n === sorted[i]) ? [] : [invalid('spec.backend.docker.failureDomains', domains, 'failure domains must be sorted by name')]
}

/**
 * The template's machine metadata (ObjectMeta.Validate). Its spec's immutability is not checked: the topology
 * controller never changes a template's spec in place (it rotates the template), and its dry runs are exempt.
 */
function validateDevMachineTemplate ({ object }: AdmissionRequest): FieldError[] {
  return validateLabelsAndAnnotations('spec.template.metadata', at(object, 'spec', 'template', 'metadata'))
}

function validateKubeadmConfigTemplate ({ object }: AdmissionRequest): FieldError[] {
  return [
    ...kubeadmConfigSpecErrors(at(object, 'spec', 'template', 'spec'), false, 'spec.template.spec'),
    ...validateLabelsAndAnnotations('spec.template.metadata', at(object, 'spec', 'template', 'metadata'))
  ]
}

const WEBHOOKS = new Map<string, ProviderWebhooks>([
  ['controlplane.cluster.x-k8s.io/v1beta2 KubeadmControlPlane', {
    default: defaultKubeadmControlPlane,
    validating: 'validation.kubeadmcontrolplane.controlplane.cluster.x-k8s.io',
    validate: r => r.old ? kubeadmControlPlaneUpdateErrors(r.old, r.object) : kubeadmControlPlaneCreateErrors(r.object)
  }],
  ['bootstrap.cluster.x-k8s.io/v1beta2 KubeadmConfigTemplate', {
    default: defaultKubeadmConfigTemplate,
    validating: 'validation.kubeadmconfigtemplate.bootstrap.cluster.x-k8s.io',
    validate: validateKubeadmConfigTemplate
  }],
  ['infrastructure.cluster.x-k8s.io/v1beta2 DevCluster', {
    validating: 'validation.devcluster.infrastructure.cluster.x-k8s.io',
    validate: validateDevCluster
  }],
  ['infrastructure.cluster.x-k8s.io/v1beta2 DevMachineTemplate', {
    defaulting: 'default.devmachinetemplate.infrastructure.cluster.x-k8s.io',
    durations: ['vm', 'node', 'apiServer', 'etcd'].map(part => ['spec', 'template', 'spec', 'backend', 'inMemory', part, 'provisioning', 'startupDuration'])
      .concat([['spec', 'template', 'spec', 'backend', 'docker', 'bootstrapTimeout']]),
    validating: 'validation.devmachinetemplate.infrastructure.cluster.x-k8s.io',
    validate: validateDevMachineTemplate
  }]
])

/** The webhooks of the object's kind, when Cluster API's providers have some that matter here. */
export function providerWebhooks (o: Unstructured): ProviderWebhooks | undefined {
  return WEBHOOKS.get(`${String(o.apiVersion)} ${String(o.kind)}`)
}

/** The first webhook decodes the object into its Go type: a duration time.ParseDuration refuses fails it (WebhookDenied). */
export function decodeForWebhooks (webhooks: ProviderWebhooks | undefined, object: Unstructured): void {
  for (const path of webhooks?.durations ?? []) {
    const value = at(object, ...path)
    if (typeof value !== 'string') continue
    try {
      parseDuration(value)
    } catch (err) {
      throw new WebhookDenied(webhooks?.defaulting ?? '', (err as Error).message)
    }
  }
}
