// Whose ExtensionConfig CRD is installed. Cluster API ships a CRD of the same name with its own conversion
// webhook and its own controller writing status: writing status there, or applying our CRD over it, competes
// with Cluster API. The CRD's labels tell: Cluster API labels everything it installs with its provider name;
// ours carries app.kubernetes.io/part-of=runtime-sdk. An unlabelled CRD (installed by hand) counts as ours.
import { codedError } from '../errors/index.js'
import { CLUSTER_API_PROVIDER_LABEL, EXTENSION_CONFIG_CRD_NAME, PART_OF_LABEL, PART_OF_RUNTIME_SDK } from '../api/extension-config/constants.js'
import type { KubeObject } from '../api/kube-object.js'
import type { KubeApi } from '../kube/api.js'
import { isNotFound } from '../kube/errors.js'

const EXTENSION_CONFIG_CRD_PATH = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${EXTENSION_CONFIG_CRD_NAME}`

export interface CrdOwnership {
  /** installed is false while the CRD does not exist. */
  installed: boolean
  /** owner is who installed it: "runtime-sdk", "Cluster API", another part-of value, or "" when unlabelled. */
  owner: string
  /** foreign is true when the owner is someone else than runtime-sdk. */
  foreign: boolean
  /** label is the `key=value` that decided, when one did. */
  label?: string
}

export function crdOwnership (crd: KubeObject | undefined): CrdOwnership {
  if (!crd) return { installed: false, owner: '', foreign: false }
  const labels = crd.metadata?.labels ?? {}
  const provider = labels[CLUSTER_API_PROVIDER_LABEL]
  if (provider !== undefined) return { installed: true, owner: 'Cluster API', foreign: true, label: `${CLUSTER_API_PROVIDER_LABEL}=${provider}` }
  const partOf = labels[PART_OF_LABEL]
  if (partOf === undefined) return { installed: true, owner: '', foreign: false }
  return { installed: true, owner: partOf, foreign: partOf !== PART_OF_RUNTIME_SDK, label: `${PART_OF_LABEL}=${partOf}` }
}

export async function readCrdOwnership (api: KubeApi): Promise<CrdOwnership> {
  try {
    return crdOwnership(await api.get<KubeObject>(EXTENSION_CONFIG_CRD_PATH))
  } catch (err) {
    if (isNotFound(err)) return crdOwnership(undefined)
    throw err
  }
}

/** One line on who owns the CRD, for logs and the CLI. */
export function describeCrdOwnership (ownership: CrdOwnership): string {
  if (!ownership.installed) return `the ExtensionConfig CRD ${EXTENSION_CONFIG_CRD_NAME} is not installed`
  const by = ownership.owner ? `belongs to ${ownership.owner} (label ${ownership.label ?? ''})` : 'has no owner label (treated as runtime-sdk\'s)'
  return `the ExtensionConfig CRD ${EXTENSION_CONFIG_CRD_NAME} ${by}`
}

/** A controller about to write status on a CRD someone else owns, without --take-over-crd. */
export class ForeignCrdError extends codedError('ERR_RUNTIME_SDK_FOREIGN_CRD') {
  readonly ownership: CrdOwnership

  constructor (ownership: CrdOwnership) {
    super(`${describeCrdOwnership(ownership)}: run beside it with --read-only (deploy/beside-cluster-api), or pass --take-over-crd to write status there anyway`)
    this.ownership = ownership
  }
}
