// What a template in a topology mutation request is: any object with apiVersion and kind, narrowed to a known
// type by a template kind (apiVersion and kind, or a type guard). The kinds of Cluster API's own templates are
// generated from its Go types (templates.generated.ts); any other kind is described by the author the same way.
import type { Unstructured } from '../api/kube-object.js'

/** What every template type has (the generated template types, yours): apiVersion and kind. A template of no known kind is an `Unstructured & TemplateBase`. */
export interface TemplateBase {
  /** apiVersion of the template. */
  apiVersion: string
  /** kind of the template. */
  kind: string
}

declare const templateType: unique symbol

/** A template kind by apiVersion and kind, typed as T (T is never checked at run time: it is what the author says). */
export interface TemplateKindRef<T extends TemplateBase = Unstructured & TemplateBase> {
  /** apiVersion templates of the kind have. */
  readonly apiVersion: string
  /** kind templates of the kind have. */
  readonly kind: string
  /** Types only, never set: carries T. */
  readonly [templateType]?: T
}

/** Which templates a walk hands to its mutate function, and their type: a kind by apiVersion and kind, or a type guard. */
export type TemplateKind<T extends TemplateBase = Unstructured & TemplateBase> = TemplateKindRef<T> | ((template: TemplateBase) => template is T)

/** A list of template kinds, of any types. */
export type TemplateKinds = ReadonlyArray<TemplateKind<TemplateBase>>

/** The template type of one kind, or of a union of kinds. */
export type KindType<K> = K extends TemplateKindRef<infer T> ? T : K extends (template: TemplateBase) => template is (infer T extends TemplateBase) ? T : never

/** The type of the templates a list of kinds picks: their union, or any template (Unstructured & TemplateBase) without a list. */
export type TemplateOf<K extends TemplateKinds> = number extends K['length'] ? Unstructured & TemplateBase : KindType<K[number]>

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

/**
 * The object at a path of fields, the missing ones created as empty objects on the way: what Go's zero-valued
 * structs give a Go mutate function. `ensurePath(template, 'spec', 'template', 'spec')` is
 * `template.spec.template.spec`, typed. Only for fields whose values are objects.
 */
export function ensurePath<T extends object, K1 extends keyof T> (object: T, k1: K1): NonNullable<T[K1]>
export function ensurePath<T extends object, K1 extends keyof T, K2 extends keyof NonNullable<T[K1]>> (object: T, k1: K1, k2: K2): NonNullable<NonNullable<T[K1]>[K2]>
export function ensurePath<T extends object, K1 extends keyof T, K2 extends keyof NonNullable<T[K1]>, K3 extends keyof NonNullable<NonNullable<T[K1]>[K2]>> (
  object: T, k1: K1, k2: K2, k3: K3): NonNullable<NonNullable<NonNullable<T[K1]>[K2]>[K3]>
export function ensurePath<T extends object, K1 extends keyof T, K2 extends keyof NonNullable<T[K1]>, K3 extends keyof NonNullable<NonNullable<T[K1]>[K2]>,
  K4 extends keyof NonNullable<NonNullable<NonNullable<T[K1]>[K2]>[K3]>> (
  object: T, k1: K1, k2: K2, k3: K3, k4: K4): NonNullable<NonNullable<NonNullable<NonNullable<T[K1]>[K2]>[K3]>[K4]>
export function ensurePath<T extends object, K1 extends keyof T, K2 extends keyof NonNullable<T[K1]>, K3 extends keyof NonNullable<NonNullable<T[K1]>[K2]>,
  K4 extends keyof NonNullable<NonNullable<NonNullable<T[K1]>[K2]>[K3]>, K5 extends keyof NonNullable<NonNullable<NonNullable<NonNullable<T[K1]>[K2]>[K3]>[K4]>> (
  object: T, k1: K1, k2: K2, k3: K3, k4: K4, k5: K5): NonNullable<NonNullable<NonNullable<NonNullable<NonNullable<T[K1]>[K2]>[K3]>[K4]>[K5]>
export function ensurePath (object: object, ...keys: PropertyKey[]): unknown {
  let current = object as Record<PropertyKey, unknown>
  for (const key of keys) {
    const next = current[key]
    if (next === undefined || next === null) current[key] = {}
    current = current[key] as Record<PropertyKey, unknown>
  }
  return current
}
