// Reading a recording of hook calls (`runtime-sdk serve --record`, the server's `record` option): one JSON line per
// call in the format of src/server/recording.ts. A line that is not JSON, a line of another format or a truncated
// last line is an error naming the file and the line: a replay must not silently skip calls.
import { readFile } from 'node:fs/promises'
import { codedError } from '../errors/index.js'
import { RECORDING_FORMAT, type RecordedCall } from '../server/recording.js'

/** A recording that cannot be read: not a recording, another format, or truncated. */
export class RecordingError extends codedError('ERR_RUNTIME_SDK_RECORDING') {}

/** The calls of one recording file, in order. */
export async function readRecording (file: string): Promise<RecordedCall[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    throw new RecordingError(`${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`)
  }
  const lines = text.split('\n')
  const truncated = lines.at(-1) !== ''
  const calls: RecordedCall[] = []
  for (const [index, line] of lines.entries()) {
    if (line === '' && index === lines.length - 1) continue
    const where = `${file}:${index + 1}`
    let call: Partial<RecordedCall>
    try {
      call = JSON.parse(line) as Partial<RecordedCall>
    } catch {
      if (truncated && index === lines.length - 1) throw new RecordingError(`${where}: the recording is truncated (its last line ends mid-call); drop that line or record again`)
      throw new RecordingError(`${where}: not JSON: this is not a runtime-sdk recording (record with \`runtime-sdk serve --record <file>\`)`)
    }
    if (call?.format !== RECORDING_FORMAT) throw new RecordingError(`${where}: format ${JSON.stringify(call?.format)} is not ${RECORDING_FORMAT}: this is not a runtime-sdk recording, or one of another version`)
    if (typeof call.hook !== 'string' || typeof call.handler !== 'string' || typeof call.apiVersion !== 'string') throw new RecordingError(`${where}: hook, apiVersion and handler are required`)
    calls.push(call as RecordedCall)
  }
  return calls
}
