/**
 * First contact (src/harness/first-contact.ts) against loopback servers: what each account
 * answered before the run created anything is recorded for PAGE-6, CRUD-5 and DEL-3, and a
 * request sent and never answered is recorded as such for its rule, never a reason to stop the run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openAccounts } from '../../../src/client/accounts.ts';
import { Ownership } from '../../../src/client/ownership.ts';
import { answered, readFirstContact, recordFirstContact } from '../../../src/harness/first-contact.ts';
import { SeededRandom } from '../../../src/harness/random.ts';
import { HttpClient } from '../../../src/http/client.ts';
import { startServer, type RequestHandler, type RunningServer } from '../../../src/reference/server.ts';
import * as setup from '../../servers/setup.ts';
import { TOKENS } from '../../servers/setup.ts';

const running: RunningServer[] = [];
const clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all([...running.splice(0).map((s) => s.close()), ...clients.splice(0).map((c) => c.close())]);
});

/** The first contact of both accounts with `handler`, as the runner records it. */
async function firstContactOf(handler: RequestHandler, timeoutMs = 5_000) {
  const server = await startServer(handler);
  running.push(server);
  const http = new HttpClient({ baseUrl: server.baseUrl, timeoutMs, concurrency: 2, maxRetries: 1, maxRetryWaitMs: 1_000, secrets: [...TOKENS] });
  clients.push(http);
  const ownership = new Ownership(() => false);
  const accounts = openAccounts(http, ownership, [{ name: 'primary', token: TOKENS[0] }, { name: 'second', token: TOKENS[1] }]);
  const dir = mkdtempSync(join(tmpdir(), 'wcs-first-contact-'));
  await recordFirstContact(accounts, dir, SeededRandom.of(1, 'first contact'));
  return readFirstContact(dir)!;
}

describe('first contact', () => {
  test('the reference: each account lists a page, a made-up id is a 404, and its delete is sent', async () => {
    const contacts = await firstContactOf(setup.reference());
    expect(contacts.map((c) => c.account)).toEqual(['primary', 'second']);
    for (const c of contacts) {
      expect(answered(c.list) && c.list.status).toBe(200);
      expect(answered(c.retrieve) && c.retrieve.status).toBe(404);
      expect(c.remove && answered(c.remove)).toBe(true);
    }
  });

  test('CRUD-5, PAGE-6: 500s to the account that never held a widget are recorded for the rules, the other account as it answered', async () => {
    const [primary, second] = await firstContactOf(setup.failsFreshAccount());
    expect(answered(primary!.list) && primary!.list.status).toBe(200);
    expect(answered(second!.list) && second!.list.status).toBe(500);
    expect(answered(second!.retrieve) && second!.retrieve.status).toBe(500);
    expect(second!.remove, 'no delete without the made-up id shown absent').toBeUndefined();
  });

  test('CRUD-5: a retrieve never answered is recorded with the timeout for CRUD-5, no delete follows, and the next account is still asked', async () => {
    const contacts = await firstContactOf(setup.hangsOnForeignIds(), 300);
    expect(contacts).toHaveLength(2);
    for (const c of contacts) {
      expect(answered(c.list) && c.list.status).toBe(200);
      expect(answered(c.retrieve)).toBe(false);
      expect((c.retrieve as { noAnswer: string }).noAnswer).toMatch(/^GET \S+\/widgets\/wcs-unknown-[0-9a-f]+: no complete response within --timeout 300 ms/);
      expect(c.remove).toBeUndefined();
    }
  });
});
