/**
 * --ca-file against a real TLS server on loopback, whose certificate a throwaway CA made at
 * test time (with openssl) signed: without the CA the run cannot start (exit 3, the TLS failure
 * named), with it the run passes; a missing CA file is one line and exit 2.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/server.ts';
import { explain, runSuite } from '../support/suite-runner.ts';

const dir = mkdtempSync(join(tmpdir(), 'wcs-tls-'));
const file = (name: string) => join(dir, name);
let server: RunningReferenceServer;

/** A CA, and a certificate for 127.0.0.1 that it signed; one day is plenty for a test. */
function makeCertificates(): void {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=Widget self-test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'server.ext');
}

beforeAll(async () => {
  makeCertificates();
  server = await startReferenceServer({}, { tls: { key: readFileSync(file('server.key'), 'utf8'), cert: readFileSync(file('server.pem'), 'utf8') } });
});
afterAll(() => server?.close());

const target = () => ['--base-url', server.baseUrl, '--token', server.tokens[0], '--second-token', server.tokens[1], '--only', 'FMT,CRUD'];

describe.concurrent('--ca-file', () => {
  test('without it, a server whose CA Node does not know is a suite error naming the TLS failure (exit 3)', async () => {
    const run = await runSuite(target(), { env: { NODE_EXTRA_CA_CERTS: '' } });
    expect(run.exitCode, explain(run)).toBe(3);
    expect(run.stderr).toMatch(/TLS failure \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): a certificate from a private CA is trusted with --ca-file/);
  });

  test('with it, the run passes over https (exit 0)', async () => {
    expect(server.baseUrl).toMatch(/^https:/);
    const run = await runSuite([...target(), '--ca-file', file('ca.pem')]);
    expect(run.exitCode, explain(run)).toBe(0);
  });

  test('a missing or non-PEM file is one line and exit 2', async () => {
    const missing = await runSuite([...target(), '--ca-file', file('nope.pem')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([`widget-conformance: --ca-file ${file('nope.pem')} cannot be read: no such file`]);
    const notPem = await runSuite([...target(), '--ca-file', file('server.ext')]);
    expect(notPem.exitCode).toBe(2);
    expect(notPem.stderr).toContain('holds no PEM certificate');
  });
});
