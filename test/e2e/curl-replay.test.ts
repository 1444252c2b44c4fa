/**
 * Replay commands (src/report/curl.ts, src/shared/sent-credential.ts): each request the HTTP
 * client sends to a loopback echo server is replayed by running its printed curl command with
 * `sh -c` (tokens only in the environment), and the server must receive the same method, URL,
 * Authorization header and body bytes; no printed command holds a token in any spelling.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, takeWriter, type ApiResponse, type Writer } from '../../src/http/client.ts';

// The HTTP layer and curl replay alone, without the ownership ledger's door (client/door.ts):
// writes are sent with each client's own writer (takeWriter, which in src/ and suites/ only the
// door calls: test/unit/network.test.ts), as the door sends them in a run.
const writers = new WeakMap<HttpClient, Writer>();

/** What a request carries here: a body only on a write. */
interface Sent {
  readonly query?: Record<string, string>;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

/** A read through request(), a write through the client's writer. */
function send(http: HttpClient, method: string, path: string, opts: Sent): Promise<ApiResponse> {
  if (['GET', 'HEAD', 'OPTIONS'].includes(method)) return http.request(method, path, { ...(opts.query ? { query: opts.query } : {}), ...(opts.headers ? { headers: opts.headers } : {}) });
  let writer = writers.get(http);
  if (!writer) writers.set(http, (writer = takeWriter(http)));
  return writer.send({ method, path, headers: opts.headers ?? {}, ...(opts.query ? { query: opts.query } : {}), ...(opts.body === undefined ? {} : { body: opts.body }) });
}
import type { Exchange } from '../../src/shared/exchange.ts';
import { Redactor } from '../../src/shared/redact.ts';
import { swapAsciiCase, type TokenVariable } from '../../src/shared/sent-credential.ts';
import { curlCommand, PLACEHOLDER_VARIABLE, printfFormat, shQuote, variablesOf } from '../../src/report/curl.ts';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

const TOKEN = 'tok-Primary-0123456789abcdef';
const SECOND = 'tok-Second-fedcba9876543210';

let server: Server;
let baseUrl: string;
const received: Received[] = [];

function record(req: IncomingMessage, body: Buffer): Received {
  return { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, contentType: req.headers['content-type'], body };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(record(req, Buffer.concat(chunks)));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function client(tokens: ReadonlyArray<{ variable: TokenVariable; value: string }>): HttpClient {
  return new HttpClient({ baseUrl, timeoutMs: 5000, concurrency: 1, maxRetries: 0, maxRetryWaitMs: 0, secrets: tokens.map((t) => t.value), tokens });
}

const BOTH = [{ variable: 'WIDGET_TOKEN' as const, value: TOKEN }, { variable: 'WIDGET_SECOND_TOKEN' as const, value: SECOND }];

/** Runs a command with sh -c, the given variables in its environment; resolves with its exit code. */
function runSh(command: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Sends a request with the client, then replays its curl command: returns both receptions and the command. */
async function sendAndReplay(http: HttpClient, method: string, path: string, opts: Sent, env: Record<string, string> = { WIDGET_TOKEN: TOKEN, WIDGET_SECOND_TOKEN: SECOND }): Promise<{ sent: Received; replayed: Received; command: string; exchange: Exchange }> {
  received.length = 0;
  const res = await send(http, method, path, opts);
  const command = curlCommand(res.exchange);
  const run = await runSh(command, env);
  expect(run.code, `${command}\n${run.stderr}`).toBe(0);
  expect(received).toHaveLength(2);
  return { sent: received[0]!, replayed: received[1]!, command, exchange: res.exchange };
}

/** Every spelling the Redactor knows: a command that holds none of them holds no token. */
const leaks = new Redactor([TOKEN, SECOND]);

function expectNoToken(text: string): void {
  expect(leaks.text(text)).toBe(text);
  for (const t of [TOKEN, SECOND]) expect(text).not.toContain(t.slice(4, 14));
}

const TRICKY_BODIES: Record<string, string> = {
  'quotes, $ and backquotes': `{"name":"it's \\"quoted\\" $(rm -rf /) \`id\` $HOME %s %n \\\\"}`,
  'newlines, CR, tabs and a trailing newline': '{"name":"a\nb\r\nc\td"}\n',
  'control characters and NUL': `{"name":"${String.fromCharCode(0, 1, 7, 27, 127)}x"}`,
  'unicode: astral, combining, right-to-left': '{"name":"😀 e\u0301 \u202Eabc \u200B 𝔘"}',
  'single quotes only': "''''",
  'a lone backslash at the end': 'abc\\',
  'every ASCII byte': String.fromCharCode(...Array.from({ length: 128 }, (_, i) => i)),
};

describe('curl replay commands', () => {
  for (const [label, body] of Object.entries(TRICKY_BODIES)) {
    it(`a body with ${label} reaches the server byte for byte when the command is replayed with sh -c`, async () => {
      const http = client(BOTH);
      const { sent, replayed, command, exchange } = await sendAndReplay(http, 'POST', '/widgets', { body, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } });
      expect(exchange.request.bodyExact).toBe(true);
      expect(replayed.body.equals(sent.body)).toBe(true);
      expect(replayed).toEqual(sent);
      expectNoToken(command);
      await http.close();
    });
  }

  it('the token is written as "${WIDGET_TOKEN}" and the second account\'s as "${WIDGET_SECOND_TOKEN}", never as values', async () => {
    const http = client(BOTH);
    const first = await sendAndReplay(http, 'GET', '/widgets', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(first.command).toContain('"${WIDGET_TOKEN}"');
    expect(first.exchange.request.credential?.token).toBe('WIDGET_TOKEN');
    expect(first.replayed).toEqual(first.sent);
    const second = await sendAndReplay(http, 'GET', '/widgets', { headers: { authorization: `Bearer ${SECOND}` } });
    expect(second.command).toContain('"${WIDGET_SECOND_TOKEN}"');
    expect(second.exchange.request.credential?.token).toBe('WIDGET_SECOND_TOKEN');
    expect(variablesOf(second.exchange)).toEqual(['WIDGET_SECOND_TOKEN']);
    expect(second.replayed).toEqual(second.sent);
    expectNoToken(first.command + second.command);
    await http.close();
  });

  const VARIANTS: Record<string, Sent> = {
    'extended (token plus a character)': { headers: { authorization: `Bearer ${TOKEN}x` } },
    'shortened (without its last character)': { headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}` } },
    'in the other letter case': { headers: { authorization: `Bearer ${swapAsciiCase(TOKEN)}` } },
    'under the Basic scheme': { headers: { authorization: `Basic ${TOKEN}` } },
    'only as an access_token query parameter': { query: { access_token: TOKEN, limit: '2' } },
    'with a lower-case scheme': { headers: { authorization: `bearer ${TOKEN}` } },
  };
  for (const [label, opts] of Object.entries(VARIANTS)) {
    it(`the token ${label} is rebuilt from the variable by the shell: the server receives what the suite sent`, async () => {
      const http = client(BOTH);
      const { sent, replayed, command } = await sendAndReplay(http, 'GET', '/widgets', opts);
      expect(replayed).toEqual(sent);
      expect(command).toMatch(/\$\{?WIDGET_TOKEN/);
      expectNoToken(command);
      await http.close();
    });
  }

  it('a made-up unknown token is no credential: it is printed as it was sent', async () => {
    const http = client(BOTH);
    const { sent, replayed, command, exchange } = await sendAndReplay(http, 'GET', '/widgets', { headers: { authorization: 'Bearer wcs-unknown-00ff' } });
    expect(exchange.request.credential?.token).toBe('other');
    expect(command).toContain("'authorization: Bearer wcs-unknown-00ff'");
    expect(replayed).toEqual(sent);
    await http.close();
  });

  it(`a token variant no shell expression rebuilds is asked for as "$${PLACEHOLDER_VARIABLE}", with a note, and never printed`, async () => {
    const odd = 'tökenÄbcdefgh-123';
    const http = client([{ variable: 'WIDGET_TOKEN', value: odd }]);
    // Unicode case swap: `tr` in the C locale cannot do it, so no expression is offered.
    const swapped = [...odd].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    received.length = 0;
    const res = await http.request('GET', '/widgets', { headers: { authorization: `Bearer ${swapped}` } });
    const command = curlCommand(res.exchange);
    expect(res.exchange.request.credential?.authorization).toBeNull();
    expect(command).toContain(`"$${PLACEHOLDER_VARIABLE}"`);
    expect(command).toMatch(new RegExp(`^# ${PLACEHOLDER_VARIABLE}:`, 'm'));
    expect(new Redactor([odd]).text(command)).toBe(command);
    // The command sends whatever the variable holds.
    const run = await runSh(command, { [PLACEHOLDER_VARIABLE]: 'Bearer by-hand' });
    expect(run.code, run.stderr).toBe(0);
    expect(received[1]?.authorization).toBe('Bearer by-hand');
    await http.close();
  });

  it('a path with dot segments, brackets and percent-escapes reaches the server exactly (--path-as-is, --globoff)', async () => {
    const http = client(BOTH);
    const { sent, replayed, command } = await sendAndReplay(http, 'GET', "/widgets/%2E%2E/a[1]{b}/'q'/%20?x=%5B%5D", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(command).toContain('--path-as-is');
    expect(replayed).toEqual(sent);
    await http.close();
  });

  it('a request sent without Content-Type is replayed without one (curl would add a form type)', async () => {
    const http = client(BOTH);
    const { sent, replayed } = await sendAndReplay(http, 'POST', '/widgets', { body: 'name=x', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(sent.contentType).toBeUndefined();
    expect(replayed).toEqual(sent);
    await http.close();
  });

  it('a cut body is replayed as recorded, with a note that it is not the body the suite sent', async () => {
    const http = client(BOTH);
    received.length = 0;
    const res = await send(http, 'POST', '/widgets', { body: 'x'.repeat(10_000), headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.exchange.request.bodyExact).toBe(false);
    expect(curlCommand(res.exchange)).toMatch(/^# the body is the recorded one/m);
    await http.close();
  });
});

describe('POSIX sh quoting', () => {
  const ALL_BYTES = String.fromCharCode(...Array.from({ length: 128 }, (_, i) => i)) + 'é😀\u202E';
  for (const shell of ['sh', 'bash']) {
    it(`shQuote and printfFormat give back every character exactly under ${shell}`, () => {
      const quoted = execFileSync(shell, ['-c', `printf '%s' ${shQuote(ALL_BYTES.replace(/\0/g, ''))}`]);
      expect(quoted.equals(Buffer.from(ALL_BYTES.replace(/\0/g, ''), 'utf8'))).toBe(true);
      const printed = execFileSync(shell, ['-c', `printf ${printfFormat(ALL_BYTES)}`]);
      expect(printed.equals(Buffer.from(ALL_BYTES, 'utf8'))).toBe(true);
    });
  }

  it('a printf format holds only printable ASCII, so no byte reaches a terminal raw', () => {
    expect(printfFormat(ALL_BYTES)).toMatch(/^'[ -~]*'$/);
  });
});
