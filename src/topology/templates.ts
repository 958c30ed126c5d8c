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

declare const templateType: unique symbol

/** A template kind by apiVersion and kind, typed as T (T is never checked at run time: it is what the author says). */
export interface TemplateKindRef<T extends TemplateObject = TemplateObject> {
  readonly apiVersion: string
  readonly kind: string
  readonly [templateType]?: T
}

/** Which templates a walk hands to its mutate function, and their type: a kind by apiVersion and kind, or a type guard. */
export type TemplateKind<T extends TemplateObject = TemplateObject> = TemplateKindRef<T> | ((template: TemplateObject) => template is T)

/** The template type of one kind, or of a union of kinds. */
export type KindType<K> = K extends TemplateKindRef<infer T> ? T : K extends (template: TemplateObject) => template is (infer T extends TemplateObject) ? T : never

/** The type of the templates a list of kinds picks: their union, or any TemplateObject without a list. */
export type TemplateOf<K extends readonly TemplateKind[]> = number extends K['length'] ? TemplateObject : KindType<K[number]>

/** The template kind of apiVersion and kind, typed as T: `templateKind<AWSMachineTemplate>('infrastructure.cluster.x-k8s.io/v1beta2', 'AWSMachineTemplate')`. */
export function templateKind<T extends TemplateObject> (apiVersion: string, kind: string): TemplateKindRef<T> {
  return { apiVersion, kind }
}

/** Whether a template is of a kind: the same apiVersion and kind, or the type guard's answer. */
export function isKind<T extends TemplateObject> (template: TemplateObject, kind: TemplateKind<T>): template is T {
  return typeof kind === 'function' ? kind(template) : template.apiVersion === kind.apiVersion && template.kind === kind.kind
}

/** What a template kind says about a template in a message: `Kind apiVersion` or the type guard's name. */
export function describeKind (kind: TemplateKind): string {
  return typeof kind === 'function' ? kind.name || 'a type guard' : `${kind.kind} ${kind.apiVersion}`
}
