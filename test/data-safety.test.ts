/**
 * Data safety: the suite never touches a widget it did not create, and leaves nothing of its
 * own behind: after a clean run, after a run whose tests fail, after a run interrupted by
 * SIGINT or SIGTERM midway, and after `npm run cleanup` of a killed run's leftovers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { ReferenceService, type Reply, type WidgetJson } from '../src/reference/service.ts';
import { startServer } from '../src/reference/server.ts';
import { WidgetStore } from '../src/reference/store.ts';
import { TOKENS } from './servers/faults.ts';
import { runAgainst } from './servers/serve.ts';
import { explain, runSuite } from './support/suite-runner.ts';

const ACCOUNTS = ['alice', 'bob'] as const;

/** Widgets the accounts hold before the run; some look like the suite's, none carries a run marker. */
function seed(store: WidgetStore): void {
  const names = ['production widget', 'CRUD-1 lookalike', 'wcs-unknown but not ours', 'wcs-short', '  spaced  ', 'ünïcödé 🦄'];
  for (const [i, name] of names.entries()) store.create('alice', { name, ...(i % 2 ? { description: `kept ${i}` } : {}) });
  for (const name of names.slice(0, 3)) store.create('bob', { name, description: 'bob keeps this' });
}

function contents(store: WidgetStore): Record<string, unknown[]> {
  return Object.fromEntries(ACCOUNTS.map((a) => [a, store.page(a, undefined, 1_000_000).items]));
}

/** A reference service (optionally with a fault) that calls `onRequest` with its request count. */
function seededService(options: { dropDescription?: boolean; onRequest?: (count: number) => void } = {}): { service: ReferenceService; store: WidgetStore } {
  const store = new WidgetStore();
  seed(store);
  let count = 0;
  const service = new (class extends ReferenceService {
    override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      options.onRequest?.((count += 1));
      return super.handle(req, res);
    }
    protected override async create(account: string, req: IncomingMessage): Promise<Reply> {
      const reply = await super.create(account, req);
      if (!options.dropDescription) return reply;
      const { description: _dropped, ...rest } = reply.body as WidgetJson;
      return { ...reply, body: rest };
    }
  })({ store });
  return { service, store };
}

describe.concurrent('data safety', () => {
  test('a conformant run leaves every pre-existing widget unchanged and nothing of its own', async () => {
    const { service, store } = seededService();
    const before = contents(store);
    const run = await runAgainst({ handler: service, tokens: TOKENS });
    expect(run.exitCode, explain(run)).toBe(0);
    expect(contents(store)).toEqual(before);
  });

  test('a run whose tests fail still leaves every pre-existing widget unchanged and nothing of its own', async () => {
    const { service, store } = seededService({ dropDescription: true });
    const before = contents(store);
    const run = await runAgainst({ handler: service, tokens: TOKENS }, ['--only', 'FMT,CRUD,DEL,AUTH,MAL,ISO,PAGE']);
    expect(run.exitCode, explain(run)).toBe(1);
    expect(contents(store)).toEqual(before);
  });

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    test(`a run interrupted by ${signal} midway deletes what it created, then exits ${code}`, async () => {
      let interrupt!: () => void;
      const midway = new Promise<void>((resolve) => (interrupt = resolve));
      // Far enough in that every suite file has created widgets, well before the end.
      const { service, store } = seededService({ onRequest: (n) => n === 150 && interrupt() });
      const before = contents(store);
      const run = await runAgainst({ handler: service, tokens: TOKENS }, [], { interrupt: { signal, when: midway } });
      expect(run.exitCode, explain(run)).toBe(code);
      expect(run.stderr).toContain(`${signal} received`);
      expect(contents(store)).toEqual(before);
    });
  }

  test('npm run cleanup deletes the widgets carrying a run marker and nothing else', async () => {
    const { service, store } = seededService();
    const before = contents(store);
    // What a killed run leaves: marked widgets, in both accounts, in either field.
    store.create('alice', { name: 'wcs-abcdefghijkl CRUD-1 7' });
    store.create('alice', { name: 'generated ✓', description: 'wcs-mnopqrstuvwx PROP-1 3' });
    store.create('bob', { name: 'wcs-abcdefghijkl ISO-1 9', description: 'bob account' });
    const running = await startServer(service);
    try {
      const run = await runSuite(['--base-url', running.baseUrl, '--token', TOKENS[0], '--second-token', TOKENS[1]], { bin: 'bin/widget-cleanup.mjs' });
      expect(run.exitCode, explain(run)).toBe(0);
      expect(run.stdout).toContain('primary account: deleted 2 widget(s)');
      expect(run.stdout).toContain('second account: deleted 1 widget(s)');
      expect(contents(store)).toEqual(before);
    } finally {
      await running.close();
    }
  });
});
