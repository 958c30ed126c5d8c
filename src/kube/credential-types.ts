// What a kubeconfig user's credentials are, shared by credentials.ts and the plugins that fetch them (exec-plugin.ts,
// oidc.ts), which must not import credentials.ts back.

/** What authenticates one request. */
export interface KubeCredentials {
  /** headers carry the credentials in each request, e.g. `authorization: Bearer <token>`. */
  headers: Record<string, string>
  /** cert is a PEM client certificate (from an exec plugin): used instead of the connection's static one. */
  cert?: string
  /** key is that client certificate's PEM key. */
  key?: string
}

/** Credentials and when they stop being good (ms since the epoch; Infinity: never). */
export interface Fresh {
  credentials: KubeCredentials
  expires: number
}
