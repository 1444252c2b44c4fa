/**
 * One module owns the network, and only the door can write (test/unit/support/network-check.ts):
 * every module of src/ and suites/ is read with TypeScript's parser, and each way around the
 * door a contributor's check might take (write-arounds.ts), dropped into suites/ or src/, is
 * refused, so `npm run test:unit` fails on it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { checkSource } from './support/network-check.ts';
import { quotes, WRITE_AROUNDS } from './support/write-arounds.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const MODULES = [...filesUnder(join(PROJECT_ROOT, 'src')), ...filesUnder(join(PROJECT_ROOT, 'suites'))].map((f) => relative(PROJECT_ROOT, f).split('\\').join('/'));

describe('one module owns the network', () => {
  it(`no module of src/ or suites/ (${MODULES.length}) reaches the network, runs text as code or takes a writer but the ones allowed to`, () => {
    const findings = MODULES.flatMap((file) => checkSource(file, readFileSync(join(PROJECT_ROOT, file), 'utf8')));
    expect(findings).toEqual([]);
  });

  it('the transport is the one module that imports undici, and the client the one that opens it', () => {
    const importers = (pattern: RegExp): string[] => MODULES.filter((f) => pattern.test(readFileSync(join(PROJECT_ROOT, f), 'utf8')));
    // A plain reading beside the parser's, so that a checker that refused nothing would not pass unseen.
    expect(importers(/from '(node:)?undici'/)).toEqual(['src/http/transport.ts']);
    expect(importers(/\bopenWire\b/).sort()).toEqual(['src/http/client.ts', 'src/http/transport.ts']);
    expect(importers(/\btakeWriter\(/).sort()).toEqual(['src/client/door.ts', 'src/http/client.ts']);
  });
});

describe('each way around the door is refused', () => {
  for (const w of WRITE_AROUNDS) {
    it(`${w.title}, at ${w.path}`, () => {
      const findings = checkSource(w.path, w.text);
      expect(findings.length, `nothing refused in:\n${w.text}`).toBeGreaterThan(0);
    });
  }

  it('the same modules are allowed where they belong: the checker refuses the form, not the names', () => {
    expect(checkSource('src/http/transport.ts', quotes("import { Agent, request } from «undici»;\nvoid Agent; void request;\n"))).toEqual([]);
    expect(checkSource('src/http/client.ts', quotes("import { openWire } from «./transport.ts»;\nvoid openWire;\n"))).toEqual([]);
    expect(checkSource('src/client/door.ts', quotes("import { takeWriter } from «../http/client.ts»;\nvoid takeWriter;\n"))).toEqual([]);
    expect(checkSource('src/reference/server.ts', quotes("import { createServer, type IncomingMessage } from «node:http»;\nimport type { AddressInfo } from «node:net»;\nvoid createServer;\n"))).toEqual([]);
    // Types are erased: a type from node:http anywhere is no way onto the network.
    expect(checkSource('src/harness/types.ts', quotes("import type { IncomingMessage } from «node:http»;\nexport type R = IncomingMessage;\n"))).toEqual([]);
    // A member named fetch on another object, or a property called so, is not the global.
    expect(checkSource('src/harness/ok.ts', 'const cache = { fetch: 1 };\nvoid cache.fetch;\n')).toEqual([]);
  });
});
