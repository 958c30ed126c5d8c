// Which request bodies are JSON: shared by the hook routes and the conversion webhook.

/**
 * Content types a hook route accepts. Cluster API's client sends no Content-Type at all, which is JSON too.
 * An explicit non-JSON type (text/xml, form data) cannot come from Cluster API; such a request is answered
 * 415 with a JSON error, which tells a misconfigured client what is wrong rather than blaming the body.
 */
export function isJsonContentType (header: string | undefined): boolean {
  if (header === undefined) return true
  const mediaType = (header.split(';')[0] ?? '').trim().toLowerCase()
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType)
}
