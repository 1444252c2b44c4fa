/**
 * `cleanup` (cleanJournal) in-process, as strict as the run: the journal's target, the tokens,
 * a base URL that 404s everything, torn and special files, ids that hold a token or controls.
 * Each case checks what the server holds afterwards (its truth), the exit code and the lines.
 */
import { createServer } from 'node:net';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../../../../src/shared/redact.ts';
import { cleanup, closeAll, killedRun, remaining, TOKENS } from './killed-run.ts';

afterEach(closeAll);

describe('cleanup, as strict as the run', () => {
  it('deletes every journalled widget, proves each gone, removes the journal, touches nothing else', async () => {
    const ran = await killedRun();
    const { code, said } = await cleanup(ran);
    expect(said).toContain('4 of 4 journalled widget(s) proven gone');
    expect(code).toBe(0);
    expect(remaining(ran)).toEqual([]);
    expect(ran.store.deletes.map((d) => d.id).sort()).toEqual(ran.made.map((m) => m.id).sort());
    expect(existsSync(ran.file)).toBe(false);
  });

  it('refuses a journal of another target: one line, exit 2, nothing sent', async () => {
    const ran = await killedRun({ target: 'https://api.example.com/v1' });
    const { code, said } = await cleanup(ran);
    expect(code).toBe(2);
    expect(said.split('\n')).toHaveLength(1);
    expect(said).toContain('the journal\'s run was against https://api.example.com/v1, not http://127.0.0.1:');
    expect(remaining(ran)).toHaveLength(4);
    expect(existsSync(ran.file)).toBe(true);
  });

  it('refuses a journal that records no target unless --trust-base-url is given', async () => {
    const ran = await killedRun({ target: null });
    const refused = await cleanup(ran);
    expect(refused.code).toBe(2);
    expect(refused.said).toMatch(/does not record its run's target .* pass --trust-base-url$/);
    expect(remaining(ran)).toHaveLength(4);
    const trusted = await cleanup(ran, { trustBaseUrl: true });
    expect(trusted.code).toBe(0);
    expect(remaining(ran)).toEqual([]);
  });

  it('with the two tokens swapped claims nothing gone and keeps the journal', async () => {
    const ran = await killedRun();
    const { code, said } = await cleanup(ran, { tokens: [TOKENS[1], TOKENS[0]] });
    expect(code).toBe(3);
    expect(said).toMatch(/tokens look swapped/);
    expect(said).toContain('0 of 4 journalled widget(s) proven gone');
    expect(said).not.toMatch(/journal removed/);
    expect(existsSync(ran.file)).toBe(true);
    expect(remaining(ran)).toHaveLength(4);
    for (const { id } of ran.made) expect(said).toContain(JSON.stringify(id));
  });

  it('with only the primary token, and that one the other account\'s, claims nothing gone', async () => {
    // The primary account made nothing the second one could list: only the other token's retrieve tells.
    const ran = await killedRun({ others: 0 });
    ran.store.widgets.get('second')!.clear();
    const { code, said } = await cleanup(ran, { tokens: [TOKENS[1], undefined] });
    expect(code).toBe(3);
    expect(said).toMatch(/shows none of the 2 widget\(s\) the journal says that account still holds .* the token may be another account's/);
    expect(said).toContain('0 of 4 journalled widget(s) proven gone');
    expect(said).not.toMatch(/journal removed/);
    expect(remaining(ran).filter((r) => r.account === 'primary')).toHaveLength(2);
    for (const { id } of ran.made.filter((m) => m.account === 'primary')) expect(said).toContain(JSON.stringify(id));
  });

  it('with a token the target refuses (401) claims nothing for that account', async () => {
    const ran = await killedRun();
    const { code, said } = await cleanup(ran, { tokens: [TOKENS[0], 'not-a-token-of-this-target'] });
    expect(code).toBe(3);
    expect(said).toMatch(/the target refuses the second account's token \(401 or 403 to a list\)/);
    expect(remaining(ran).map((r) => r.account)).toEqual(['second', 'second']);
    expect(existsSync(ran.file)).toBe(true);
  });

  it('against a base URL whose every path 404s claims nothing gone', async () => {
    const ran = await killedRun();
    ran.store.faults.everything404 = true;
    const { code, said } = await cleanup(ran, { trustBaseUrl: true });
    expect(code).toBe(3);
    expect(said).toMatch(/the list with the primary account's token .*404.*a 404 proves nothing/);
    expect(said).toContain('0 of 4 journalled widget(s) proven gone');
    ran.store.faults.everything404 = false;
    expect(remaining(ran)).toHaveLength(4);
    expect(existsSync(ran.file)).toBe(true);
  });

  it('reports a torn line by number and keeps the journal, having deleted what it could prove', async () => {
    const ran = await killedRun();
    appendFileSync(ran.file, '{"kind":"created","account":"primary","key":"k9","id":"w');
    const { code, said } = await cleanup(ran);
    const lines = readFileSync(ran.file, 'utf8').split('\n').length;
    expect(said).toContain(`${ran.file}:${lines}: not JSON, and the file does not end with a newline (a write cut short): not read (the journal is kept)`);
    expect(code).toBe(3);
    expect(existsSync(ran.file)).toBe(true);
    expect(remaining(ran)).toEqual([]);
  });

  it('refuses a socket, a directory and a symbolic link at once, before any open that could block (a FIFO: test/e2e/data-safety.test.ts)', async () => {
    const ran = await killedRun();
    const dir = mkdtempSync(join(tmpdir(), 'cleanup-special-'));
    const socketPath = join(dir, 'widget-journal-socket.jsonl');
    const socket = createServer();
    await new Promise<void>((resolve) => socket.listen(socketPath, resolve));
    try {
      const folder = join(dir, 'widget-journal-dir.jsonl');
      mkdirSync(folder);
      const link = join(dir, 'widget-journal-link.jsonl');
      symlinkSync(ran.file, link);
      for (const [file, what] of [[socketPath, 'a socket'], [folder, 'a directory'], [link, 'a symbolic link']] as const) {
        const { code, said } = await cleanup(ran, { file });
        expect(code, file).toBe(2);
        expect(said).toBe(`${file} is ${what}, not a regular file: not read (a journal is a regular file a run wrote)`);
      }
      expect(ran.store.deletes).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    }
  });

  it('stores an id that holds a short token exactly (never as text), and cleanup deletes it', async () => {
    const tokens = ['k7q', 'zz9'] as const;
    const ran = await killedRun({ tokens, ids: (n) => `wk7q${n}zz9` });
    const text = readFileSync(ran.file, 'utf8');
    // No spelling of either token anywhere in the file, and no id redacted out of reach.
    expect(new Redactor([...tokens]).text(text)).toBe(text);
    expect(text).not.toContain('[REDACTED]');
    expect(text).toContain('"idHex"');
    const { code } = await cleanup(ran, { tokens });
    expect(code).toBe(0);
    expect(remaining(ran)).toEqual([]);
  });

  it.each([
    ['standard base64, "/" and "+" included', (n: number) => [`q3/9Zk+uT0aB8w/${n}`, `/hQ/tsr+w2Sp${n}`, `id//cZG+zin${n}/`][n % 3]!],
    ['free text: other scripts, "%41", "?", "#", ";", a space and "\\"', (n: number) => `Ωmega ü-50%41?#;\\${n}`],
  ])('deletes widgets whose ids are %s, each proven gone', async (_what, ids) => {
    const ran = await killedRun({ ids });
    const { code, said } = await cleanup(ran);
    expect(code, said).toBe(0);
    expect(remaining(ran)).toEqual([]);
    expect(ran.store.deletes.map((d) => d.id).sort()).toEqual(ran.made.map((m) => m.id).sort());
  });

  it('prints server ids through the run\'s console escaping: no raw C1, DEL or bidi control', async () => {
    const ran = await killedRun({ ids: (n) => `w${n}\u009b31m\u007f\u202e` });
    ran.store.faults.proxy404 = new Set(ran.made.map((m) => m.id));
    const { code, said } = await cleanup(ran);
    expect(code).toBe(3);
    expect(said).toContain('\\x9b31m\\x7f\\u202e');
    expect(said).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('a widget listed with the run\'s marker at an id the journal does not hold is named, left alone, and keeps the journal', async () => {
    const ran = await killedRun();
    // A create answered another id (say a hidden widget's), and the widget it made stands here.
    ran.store.put('primary', { id: 'w-unlearned', name: `${ran.marker} CRUD-1 made elsewhere` });
    const { code, said } = await cleanup(ran);
    expect(code).toBe(3);
    expect(said).toMatch(/primary account: 1 widget\(s\) listed with the run marker at ids no create of this run was answered with .*"w-unlearned"/);
    expect(ran.store.widgets.get('primary')!.has('w-unlearned'), 'never deleted without a journalled create').toBe(true);
    expect(remaining(ran)).toEqual([]);
    expect(existsSync(ran.file)).toBe(true);
  });

  it('never says a widget is gone because a list no longer shows the marker: a retrieve must answer 404 or 410', async () => {
    const ran = await killedRun();
    // The server deletes but answers every retrieve of the run's ids 500, and lists no marker: nothing is proven gone.
    ran.store.faults.retrieve500 = new Set(ran.made.map((m) => m.id));
    const { code, said } = await cleanup(ran);
    expect(code).toBe(3);
    expect(said).toContain('0 of 4 journalled widget(s) proven gone');
    expect(existsSync(ran.file)).toBe(true);
  });
});
