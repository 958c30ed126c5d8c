// Kubernetes metadata embedded in hook requests. Typed for the fields hook authors read; everything else
// (managedFields, future fields) passes through untouched because the caller owns these objects.
import { Int64, List, named, Open, Optional, Str, StringMap, Type } from '../schema.js'

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1'

export const OwnerReference = named(`${META}.OwnerReference`, Open({
  apiVersion: Str(317, { description: 'apiVersion of the owner.' }),
  kind: Str(63, { description: 'kind of the owner.' }),
  name: Str(253, { description: 'name of the owner.' }),
  uid: Str(128, { description: 'uid of the owner.' }),
  controller: Optional(Type.Boolean({ description: 'controller is true if the owner is the managing controller.' })),
  blockOwnerDeletion: Optional(Type.Boolean({ description: 'blockOwnerDeletion blocks deletion of the owner until this object is gone.' }))
}, { description: 'OwnerReference identifies an owning object.' }))

export const ObjectMeta = named(`${META}.ObjectMeta`, Open({
  name: Optional(Str(253, { description: 'name of the object, unique within its namespace.' })),
  generateName: Optional(Str(253, { description: 'generateName is the prefix the server used to generate the name.' })),
  namespace: Optional(Str(63, { description: 'namespace of the object.' })),
  uid: Optional(Str(128, { description: 'uid is the unique identifier the server assigned.' })),
  resourceVersion: Optional(Str(128, { description: 'resourceVersion is the opaque version of the object.' })),
  generation: Optional(Int64({ description: 'generation counts changes to the desired state.' })),
  creationTimestamp: Optional(Type.Union([Str(64), Type.Null()], { description: 'creationTimestamp is when the object was created (RFC 3339).' })),
  deletionTimestamp: Optional(Str(64, { description: 'deletionTimestamp is when deletion was requested (RFC 3339).' })),
  labels: Optional(StringMap({ description: 'labels are the object\'s labels.', maxValueLength: 63 })),
  annotations: Optional(StringMap({ description: 'annotations are the object\'s annotations.', maxValueLength: 262144 })),
  ownerReferences: Optional(List(OwnerReference, 256, { description: 'ownerReferences lists the objects that own this one.' })),
  finalizers: Optional(List(Str(317), 128, { description: 'finalizers must be empty before the object is deleted.' }))
}, { description: 'ObjectMeta is the standard Kubernetes object metadata.' }))

export const LabelSelectorRequirement = named(`${META}.LabelSelectorRequirement`, Open({
  key: Str(317, { description: 'key is the label key the selector applies to.' }),
  operator: Str(32, { description: 'operator is one of In, NotIn, Exists and DoesNotExist.' }),
  values: Optional(List(Str(63), 256, { description: 'values are the label values for In and NotIn.' }))
}, { description: 'LabelSelectorRequirement is one requirement of a label selector.' }))

export const LabelSelector = named(`${META}.LabelSelector`, Open({
  matchLabels: Optional(StringMap({ description: 'matchLabels requires each label to have the given value.', maxValueLength: 63 })),
  matchExpressions: Optional(List(LabelSelectorRequirement, 64, { description: 'matchExpressions requires every expression to match.' }))
}, { description: 'LabelSelector selects objects by labels.' }))
