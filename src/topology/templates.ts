// What a template in a topology mutation request is: any object with apiVersion and kind, narrowed to a known
// type by a template kind (apiVersion and kind, or a type guard). The kinds of Cluster API's own templates are
// generated from its Go types (templates.generated.ts); any other kind is described by the author the same way.
import type { ObjectMeta } from '../api/hooks/v1alpha1/types.generated.js'

/** A template as Cluster API sends it: an object with apiVersion, kind and metadata, any other field unknown. */
export interface TemplateObject {
  apiVersion: string
  kind: string
  metadata?: ObjectMeta
  [field: string]: unknown
}

/** What every template type has (the generated template types, yours): apiVersion and kind. */
export interface TemplateBase {
  apiVersion: string
  kind: string
}

declare const templateType: unique symbol

/** A template kind by apiVersion and kind, typed as T (T is never checked at run time: it is what the author says). */
export interface TemplateKindRef<T extends TemplateBase = TemplateObject> {
  readonly apiVersion: string
  readonly kind: string
  readonly [templateType]?: T
}

/** Which templates a walk hands to its mutate function, and their type: a kind by apiVersion and kind, or a type guard. */
export type TemplateKind<T extends TemplateBase = TemplateObject> = TemplateKindRef<T> | ((template: TemplateBase) => template is T)

/** A list of template kinds, of any types. */
export type TemplateKinds = ReadonlyArray<TemplateKind<TemplateBase>>

/** The template type of one kind, or of a union of kinds. */
export type KindType<K> = K extends TemplateKindRef<infer T> ? T : K extends (template: TemplateBase) => template is (infer T extends TemplateBase) ? T : never

/** The type of the templates a list of kinds picks: their union, or any TemplateObject without a list. */
export type TemplateOf<K extends TemplateKinds> = number extends K['length'] ? TemplateObject : KindType<K[number]>

/** The template kind of apiVersion and kind, typed as T: `templateKind<AWSMachineTemplate>('infrastructure.cluster.x-k8s.io/v1beta2', 'AWSMachineTemplate')`. */
export function templateKind<T extends TemplateBase> (apiVersion: string, kind: string): TemplateKindRef<T> {
  return { apiVersion, kind }
}

/** Whether a template is of a kind: the same apiVersion and kind, or the type guard's answer. */
export function isKind<T extends TemplateBase> (template: TemplateBase, kind: TemplateKind<T>): template is T {
  return typeof kind === 'function' ? kind(template) : template.apiVersion === kind.apiVersion && template.kind === kind.kind
}

/** What a template kind says about a template in a message: `Kind apiVersion` or the type guard's name. */
export function describeKind (kind: TemplateKind<TemplateBase>): string {
  return typeof kind === 'function' ? kind.name || 'a type guard' : `${kind.kind} ${kind.apiVersion}`
}
