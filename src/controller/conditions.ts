// Kubernetes conditions (metav1.Condition) and Cluster API's legacy v1beta1 conditions: set without moving
// lastTransitionTime unless the status changes, ordered the way Cluster API orders them.

/** Kubernetes timestamps have second precision. */
function timestamp (date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** conditions with `next` set: the previous lastTransitionTime is kept while the status does not change. */
export function setCondition<C extends { type: string, status: string, lastTransitionTime: string }> (
  conditions: readonly C[] | undefined, next: Omit<C, 'lastTransitionTime'>, now: () => Date = () => new Date()): C[] {
  const previous = conditions?.find(c => c.type === next.type)
  const lastTransitionTime = previous && previous.status === next.status ? previous.lastTransitionTime : timestamp(now())
  const updated = { ...next, lastTransitionTime } as C
  return sortConditions([...(conditions ?? []).filter(c => c.type !== next.type), updated])
}

export function removeCondition<C extends { type: string }> (conditions: readonly C[] | undefined, type: string): C[] {
  return (conditions ?? []).filter(c => c.type !== type)
}

export function findCondition<C extends { type: string }> (conditions: readonly C[] | undefined, type: string): C | undefined {
  return conditions?.find(c => c.type === type)
}

const FIRST = ['Available', 'Ready']
const LAST = ['Deleting', 'Paused']

/** Cluster API's order: Available and Ready first, Deleting and Paused last, the others alphabetically. */
function sortConditions<C extends { type: string }> (conditions: C[]): C[] {
  const rank = (type: string) => FIRST.includes(type) ? FIRST.indexOf(type) - FIRST.length : LAST.includes(type) ? 1 + LAST.indexOf(type) : 0
  return [...conditions].sort((a, b) => rank(a.type) - rank(b.type) || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0))
}
