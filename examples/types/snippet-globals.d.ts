// What the code blocks of the README and docs/ (compiled here as docs-*.ts by test/package) leave to their reader:
// the objects a controller already has, a check of the reader's own, their own hook groups. Global declarations, so
// that the blocks compile exactly as the pages show them.

/** The object a hook is called for, and a request of the hook a block calls. */
declare const cluster: import('runtime-sdk').v1alpha1.Cluster
declare const request: import('runtime-sdk').v1alpha1.BeforeClusterUpgradeRequest
/** An ExtensionConfig the controller reads. */
declare const extensionConfig: import('runtime-sdk').ExtensionConfig
/** The labels of a namespace, as the controller's cache knows them. */
declare function labelsOf (namespace: string): Promise<Record<string, string>>
/** Reconciles again after that many seconds. */
declare function requeueAfter (seconds: number): void
/** The reader's controller, which calls hooks through a runtime client. */
declare const myController: { reconcile: (client: import('runtime-sdk').RuntimeClient) => Promise<void> }
/** The reader's own hook group, in two versions. */
declare const myHooksV1alpha1: import('runtime-sdk').HookGroupVersion
declare const myHooksV1alpha2: import('runtime-sdk').HookGroupVersion
/** A serving certificate and its key (PEM). */
declare const cert: string
declare const key: string
/** Whether the reader's backup of a Cluster is done. */
declare function backupFinished (cluster: string, signal: AbortSignal): Promise<boolean>
/** The reader's extension handlers, and the ClusterClass and templates of their Cluster, read from their files. */
declare const handlers: ReadonlyArray<import('runtime-sdk').ExtensionHandler>
declare const clusterClass: import('runtime-sdk').v1alpha1.ClusterClass
declare const templates: ReadonlyArray<import('runtime-sdk').KubeObject>
