// Type assertions for the type tests: `exact<Equal<A, B>>()` compiles only when A and B are the same type.
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
export function exact<T extends true> (): T | undefined { return undefined }
