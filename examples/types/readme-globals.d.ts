// What the README's extension example (readme-example.ts, copied verbatim) leaves to its reader: a check that the
// cluster's backup is done. A global declaration, so that the example itself stays exactly as the README shows it.
declare function backupDone (
  cluster: import('runtime-sdk').RequestOf<typeof import('runtime-sdk').v1alpha1.BeforeClusterUpgrade>['cluster'],
  signal: AbortSignal
): Promise<boolean>
