// Stack traces in messages, as JavaScript, Go, Python and JVM extensions print them, and messages that are fine.
import t from 'tap'
import { findStackTrace } from '../../src/conformance/index.js'

t.test('stack traces are found and named', async t => {
  const traces: Array<[string, string, string]> = [
    ['TypeError: x is undefined\n    at handler (/srv/ext/index.js:12:7)', 'a JavaScript stack frame', 'at handler (/srv/ext/index.js:12:7)'],
    ['boom\n    at /srv/ext/index.js:3:1', 'a JavaScript stack frame', 'at /srv/ext/index.js:3:1'],
    ['boom at async file:///srv/ext/main.mjs:40:11', 'a JavaScript stack frame', 'at async file:///srv/ext/main.mjs:40:11'],
    ['boom\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)', 'a JavaScript stack frame',
      'at process.processTicksAndRejections (node:internal/process/task_queues:95:5)'],
    ['goroutine 42 [running]:\nmain.handler()', 'a Go goroutine dump', 'goroutine 42 [running]:'],
    ['panic: runtime error: invalid memory address or nil pointer dereference', 'a Go panic', 'panic:'],
    ['handler failed\n\t/go/src/ext/handlers.go:57 +0x1d4', 'a Go stack frame', '.go:57 +0x1d4'],
    ['Traceback (most recent call last):\n  File "ext.py", line 3', 'a Python traceback', 'Traceback (most recent call last)'],
    ['java.lang.NullPointerException\n\tat com.example.Ext.handle(Ext.java:31)', 'a Java stack frame', 'at com.example.Ext.handle(Ext.java:31)']
  ]
  for (const [text, kind, excerpt] of traces) t.same(findStackTrace(text), { kind, excerpt }, kind)
})

t.test('ordinary messages are not stack traces', async t => {
  for (const text of [
    'waiting for CNI upgrade',
    'failed to call extension handler "x": got failure response with message: at least one node must be ready',
    'error unmarshalling request: unexpected end of JSON input',
    'TypeError at JSON.parse (<anonymous>)',
    'retry at 10:30 UTC',
    'the panic button was pressed',
    'handler "slow" did not answer within 9.5s'
  ]) t.equal(findStackTrace(text), undefined, text)
})
