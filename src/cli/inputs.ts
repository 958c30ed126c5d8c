// The objects of the files and directories a command is given (-f), with the file each came from for messages.
import { manifestFiles, readDocuments } from '../kube/manifests.js'

/** Every document of the files and directories given, with the file each came from. */
export async function readInputs (paths: readonly string[]): Promise<{ objects: unknown[], sources: Map<unknown, string> }> {
  const objects: unknown[] = []
  const sources = new Map<unknown, string>()
  for (const path of paths) {
    for (const file of await manifestFiles(path)) {
      for (const doc of await readDocuments(file)) {
        objects.push(doc)
        sources.set(doc, file)
      }
    }
  }
  return { objects, sources }
}
