/**
 * Ways around the write door, as a contributor's new check might write them: each is a module the
 * network check (network-check.ts) must refuse when it stands at the path given, in suites/ or in
 * src/. The first six are issue 35's, each of which once deleted a pre-existing widget from
 * suites/; the others are their siblings (the same way onto the network, spelled otherwise).
 */

/** One way around the door, and where a contributor might put it. */
export interface WriteAround {
  readonly title: string;
  /** The project path the module is checked at. */
  readonly path: string;
  readonly text: string;
}

const TARGET = "const target = 'http://127.0.0.1:8080/v1/widgets/p_a0';";
const HEADERS = "const headers = { authorization: `Bearer ${process.env.WIDGET_TOKEN}` };";

/**
 * Module names are written between « and » and given their quotes when the list is read, so that
 * a plain reading of this file (test/unit/tiers.test.ts follows imports) takes none of them for an
 * import of its own.
 */
export const quotes = (text: string): string => text.replace(/[«»]/g, "'");
const quoted = (w: WriteAround): WriteAround => ({ ...w, text: quotes(w.text) });

export const WRITE_AROUNDS: readonly WriteAround[] = ([
  // Issue 35's six.
  { title: 'undici request() with DELETE', path: 'suites/evil.test.ts', text: `import { request } from «undici»;\n${TARGET}\n${HEADERS}\nawait request(target, { method: 'DELETE', headers });\n` },
  { title: 'undici request() with the method in a variable', path: 'suites/evil.test.ts', text: `import { request as send } from «undici»;\n${TARGET}\nconst method = ['DEL', 'ETE'].join('');\nawait send(target, { method: method as 'DELETE' });\n` },
  { title: 'an undici Agent', path: 'src/harness/evil.ts', text: `import { Agent } from «undici»;\nconst agent = new Agent();\nawait agent.request({ origin: 'http://127.0.0.1:8080', path: '/v1/widgets/p_a0', method: 'DELETE' });\n` },
  { title: 'the global fetch', path: 'suites/evil.test.ts', text: `${TARGET}\nawait fetch(target, { method: 'DELETE' });\n` },
  { title: 'node:http request()', path: 'suites/evil.test.ts', text: `import { request } from «node:http»;\nrequest('http://127.0.0.1:8080/v1/widgets/p_a0', { method: 'DELETE' }).end();\n` },
  { title: 'the door opened from a suite at run time (the create ticket once sent DELETE)', path: 'suites/evil.test.ts', text: `const { openDoor } = await import(«../src/client/door.ts»);\nvoid openDoor;\n` },
  // The same ways, spelled otherwise.
  { title: 'the door opened from a check module by a static import', path: 'src/harness/evil.ts', text: `import { openDoor } from «../client/door.ts»;\nvoid openDoor;\n` },
  { title: 'the accounts opened (and with them a door) from a check module', path: 'src/harness/checks-extra.ts', text: `import { openAccounts } from «../client/accounts.ts»;\nvoid openAccounts;\n` },
  { title: 'a client\'s writer taken outside the door', path: 'src/harness/evil.ts', text: `import { takeWriter } from «../http/client.ts»;\nvoid takeWriter;\n` },
  { title: 'the client module imported whole, its writer read by a computed name', path: 'src/harness/evil.ts', text: `import * as client from «../http/client.ts»;\nconst name = 'take' + 'Writer';\nvoid (client as Record<string, unknown>)[name];\n` },
  { title: 'a wire opened outside the client', path: 'src/client/evil.ts', text: `import { openWire } from «../http/transport.ts»;\nvoid openWire;\n` },
  { title: 'the transport re-exported to the suites', path: 'src/harness/api.ts', text: `export * from «../http/transport.ts»;\n` },
  { title: 'undici imported whole', path: 'src/http/evil.ts', text: `import * as undici from «undici»;\nvoid undici;\n` },
  { title: 'undici\'s default export', path: 'src/http/evil.ts', text: `import undici from «undici»;\nvoid undici;\n` },
  { title: 'undici re-exported', path: 'src/http/evil.ts', text: `export { request } from «undici»;\n` },
  { title: 'undici loaded for its side effects', path: 'src/http/evil.ts', text: `import «undici»;\n` },
  { title: 'http imported without the node: prefix', path: 'suites/evil.test.ts', text: `import http from «http»;\nhttp.request({ method: 'DELETE', host: '127.0.0.1', port: 8080, path: '/v1/widgets/p_a0' }).end();\n` },
  { title: 'node:https', path: 'suites/evil.test.ts', text: `import { request } from «node:https»;\nvoid request;\n` },
  { title: 'node:http2', path: 'src/harness/evil.ts', text: `import { connect } from «node:http2»;\nvoid connect;\n` },
  { title: 'a raw socket (node:net)', path: 'suites/evil.test.ts', text: `import { connect } from «node:net»;\nconnect(8080, '127.0.0.1').end('DELETE /v1/widgets/p_a0 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n');\n` },
  { title: 'node:tls', path: 'src/report/evil.ts', text: `import { connect } from «node:tls»;\nvoid connect;\n` },
  { title: 'node:dgram', path: 'src/report/evil.ts', text: `import { createSocket } from «node:dgram»;\nvoid createSocket;\n` },
  { title: 'the reference server sending a request (it may only serve)', path: 'src/reference/server.ts', text: `import { createServer, request } from «node:http»;\nvoid createServer;\nrequest('http://127.0.0.1:8080/v1/widgets/p_a0', { method: 'DELETE' }).end();\n` },
  { title: 'a dynamic import of node:http', path: 'suites/evil.test.ts', text: `const http = await import(«node:http»);\nvoid http;\n` },
  { title: 'a dynamic import of a computed module', path: 'suites/evil.test.ts', text: `const name = 'und' + 'ici';\nconst undici = await import(name);\nvoid undici;\n` },
  { title: 'a dynamic import of a data: URL', path: 'src/harness/evil.ts', text: "const m = await import(«data:text/javascript,export default fetch»);\nvoid m;\n" },
  { title: 'require()', path: 'suites/evil.test.ts', text: `const http = require(«node:http»);\nvoid http;\n` },
  { title: 'createRequire()', path: 'src/harness/evil.ts', text: `import { createRequire } from «node:module»;\nconst load = createRequire(import.meta.url);\nvoid load('node:http');\n` },
  { title: 'import … = require(…)', path: 'src/harness/evil.ts', text: `import http = require(«node:http»);\nvoid http;\n` },
  { title: 'fetch read from globalThis', path: 'suites/evil.test.ts', text: `await globalThis.fetch('http://127.0.0.1:8080/v1/widgets/p_a0', { method: 'DELETE' });\n` },
  { title: 'fetch read from globalThis by a string', path: 'suites/evil.test.ts', text: `await globalThis['fetch']('http://127.0.0.1:8080/v1/widgets/p_a0', { method: 'DELETE' });\n` },
  { title: 'fetch read from globalThis by a computed name', path: 'src/harness/evil.ts', text: `const name = 'fe' + 'tch';\nconst send = (globalThis as unknown as Record<string, (url: string, init: object) => Promise<unknown>>)[name]!;\nawait send('http://127.0.0.1:8080/v1/widgets/p_a0', { method: 'DELETE' });\n` },
  { title: 'globalThis handed to another name', path: 'src/harness/evil.ts', text: `const g = globalThis;\nvoid g;\n` },
  { title: 'fetch destructured from global', path: 'suites/evil.test.ts', text: `const { fetch: send } = global;\nvoid send;\n` },
  { title: 'eval', path: 'suites/evil.test.ts', text: `eval("fetch('http://127.0.0.1:8080/v1/widgets/p_a0', { method: 'DELETE' })");\n` },
  { title: 'new Function', path: 'suites/evil.test.ts', text: `new Function("return fetch('http://127.0.0.1:8080/v1/widgets/p_a0', { method: 'DELETE' })")();\n` },
  { title: 'the Function constructor reached through .constructor', path: 'suites/evil.test.ts', text: `const make = (() => undefined).constructor as (code: string) => () => unknown;\nmake('return 1')();\n` },
  { title: 'Reflect reading a global', path: 'src/harness/evil.ts', text: `const send = Reflect.get(Object(undefined), 'x');\nvoid send;\n` },
  { title: 'process.getBuiltinModule', path: 'suites/evil.test.ts', text: `const http = process.getBuiltinModule('node:http');\nvoid http;\n` },
  { title: 'a computed member of process', path: 'suites/evil.test.ts', text: `const key = 'getBuiltin' + 'Module';\nvoid (process as unknown as Record<string, unknown>)[key];\n` },
  { title: 'XMLHttpRequest', path: 'src/harness/evil.ts', text: `const x = new XMLHttpRequest();\nx.open('DELETE', 'http://127.0.0.1:8080/v1/widgets/p_a0');\n` },
  { title: 'WebSocket', path: 'src/harness/evil.ts', text: `const ws = new WebSocket('ws://127.0.0.1:8080');\nvoid ws;\n` },
  { title: 'EventSource', path: 'src/harness/evil.ts', text: `const es = new EventSource('http://127.0.0.1:8080');\nvoid es;\n` },
  { title: 'curl started from a suite (node:child_process)', path: 'suites/evil.test.ts', text: `import { execSync } from «node:child_process»;\nexecSync('curl -X DELETE http://127.0.0.1:8080/v1/widgets/p_a0');\n` },
  { title: 'node:child_process outside the token command runner', path: 'src/cli/run/evil.ts', text: `import { spawn } from «node:child_process»;\nvoid spawn;\n` },
  { title: 'node:vm outside the memory valve', path: 'src/harness/evil.ts', text: `import { runInNewContext } from «node:vm»;\nvoid runInNewContext('1');\n` },
  { title: 'a worker evaluating code', path: 'src/harness/evil.ts', text: `import { Worker } from «node:worker_threads»;\nnew Worker('fetch(1)', { eval: true });\n` },
  { title: 'vitest\'s vi loading a module at run time', path: 'suites/evil.test.ts', text: `import { vi } from «vitest»;\nconst http = await vi.importActual('node:http');\nvoid http;\n` },
  { title: 'a package not on the list', path: 'src/harness/evil.ts', text: `import got from «got»;\nvoid got;\n` },
] as const).map(quoted);
