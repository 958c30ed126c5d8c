// Type tests of the named v1alpha1 types (see handlers.ts for how the package test checks them). Nothing here runs.
import { v1alpha1, type RequestOf, type ResponseOf } from 'runtime-sdk'
import { exact, type Equal } from './expect.js'

// Compiles: every hook's request and response is a named type, and the objects they carry are too.
exact<Equal<RequestOf<typeof v1alpha1.BeforeClusterUpgrade>, v1alpha1.BeforeClusterUpgradeRequest>>()
exact<Equal<ResponseOf<typeof v1alpha1.GeneratePatches>, v1alpha1.GeneratePatchesResponse>>()
exact<Equal<v1alpha1.BeforeClusterUpgradeRequest['cluster'], v1alpha1.Cluster>>()
exact<Equal<v1alpha1.Cluster['metadata'], v1alpha1.ObjectMeta>>()
exact<Equal<v1alpha1.JSONSchemaProps['type'], 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | undefined>>()
exact<Equal<v1alpha1.JSONSchemaProps['properties'], { [key: string]: v1alpha1.JSONSchemaProps } | undefined>>()

export function describe (cluster: v1alpha1.Cluster): string {
  const workers = cluster.spec?.topology?.workers?.machineDeployments ?? []
  return `${cluster.metadata.name ?? ''}: ${workers.map(md => `${md.name}=${md.replicas ?? 0}`).join(', ')}`
}

// @ts-expect-error TS2741 metadata is always sent, so a Cluster without it is not a Cluster
export const noMetadata: v1alpha1.Cluster = { spec: {} }
// @ts-expect-error TS2322 Cluster API's enums are literal unions
export const patchType: v1alpha1.PatchType = 'StrategicMerge'
