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

/**
 * Who installed the ExtensionConfig CRD: Cluster API ships a CRD of the same name with its own conversion webhook and
 * controller, and writing status there competes with it. Cluster API labels what it installs with its provider name;
 * runtime-sdk's CRD has app.kubernetes.io/part-of=runtime-sdk; an unlabelled CRD counts as runtime-sdk's.
 */
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

/** The ownership of a CRD object (undefined: not installed), read from its labels. */
export function crdOwnership (crd: KubeObject | undefined): CrdOwnership {
  if (!crd) return { installed: false, owner: '', foreign: false }
  const labels = crd.metadata?.labels ?? {}
  const provider = labels[CLUSTER_API_PROVIDER_LABEL]
  if (provider !== undefined) return { installed: true, owner: 'Cluster API', foreign: true, label: `${CLUSTER_API_PROVIDER_LABEL}=${provider}` }
  const partOf = labels[PART_OF_LABEL]
  if (partOf === undefined) return { installed: true, owner: '', foreign: false }
  return { installed: true, owner: partOf, foreign: partOf !== PART_OF_RUNTIME_SDK, label: `${PART_OF_LABEL}=${partOf}` }
}

/** Reads the ExtensionConfig CRD from the API server and tells who owns it (it needs get on customresourcedefinitions). */
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
  /** ownership says who owns the CRD. */
  readonly ownership: CrdOwnership

  constructor (ownership: CrdOwnership) {
    super(`${describeCrdOwnership(ownership)}: run beside it with --read-only (deploy/beside-cluster-api), or pass --take-over-crd to write status there anyway`)
    this.ownership = ownership
  }
}
