/**
 * junit.xml from real runs, checked with xmllint against schemas/junit-10.xsd (the schema
 * Jenkins' xunit plugin reads JUnit with): a passing run, a failing run, a run with --only and
 * a run interrupted by SIGINT. A test that did not run is never a plain (passed) testcase, and
 * each failure's message attribute is one line.
 */
import { spawnSync } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { ReferenceService } from '../../src/reference/service.ts';
import { CRUD_FAULTS } from '../servers/faults/index.ts';
import { runAgainst } from '../servers/serve.ts';
import { serve } from '../servers/support.ts';
import { explain, runSuite, type SuiteRun } from '../support/suite-runner.ts';

const XSD = join(PROJECT_ROOT, 'schemas/junit-10.xsd');

/** xmllint's complaints about the run's junit.xml ('' when it validates). */
function schemaProblems(run: SuiteRun): string {
  const result = spawnSync('xmllint', ['--noout', '--schema', XSD, join(run.reportDir, 'junit.xml')], { encoding: 'utf8' });
  if (result.error) throw new Error(`xmllint could not run (Debian's libxml2-utils; .ci/run installs it): ${result.error.message}`);
  return result.status === 0 ? '' : result.stderr;
}

interface Testcase {
  readonly name: string;
  /** The element's content: '' for a plain (passed) testcase. */
  readonly inner: string;
  readonly element: string;
}

const unescape = (s: string): string => s.replace(/&(lt|gt|quot|apos|amp|#(\d+));/g, (_, e: string, n?: string) => (n ? String.fromCharCode(Number(n)) : ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e] as string));

function testcases(run: SuiteRun): Testcase[] {
  const xml = readFileSync(join(run.reportDir, 'junit.xml'), 'utf8');
  return [...xml.matchAll(/<testcase name="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => ({ name: unescape(m[1] as string), inner: m[2] ?? '', element: m[0] }));
}

/** The report's tests by title, with their outcomes. */
function reportTests(run: SuiteRun): Map<string, string> {
  return new Map((run.report?.rules ?? []).flatMap((r) => r.tests.map((t) => [t.title, t.outcome] as const)));
}

/** The junit.xml agrees with conformance.json test for test, and a plain testcase is always a pass. */
function expectSameTests(run: SuiteRun): void {
  const cases = testcases(run);
  const outcomes = reportTests(run);
  expect(cases.map((c) => c.name).sort()).toEqual([...outcomes.keys()].sort());
  for (const c of cases) {
    const outcome = outcomes.get(c.name);
    if (c.inner === '') expect(outcome, `${c.name} is a plain testcase, so it must have passed`).toBe('pass');
    if (outcome === 'skip') expect(c.inner, c.name).toMatch(/^<skipped message="[^"]+"\/>$/);
    if (outcome === 'fail') expect(c.inner, c.name).toMatch(/^<failure /);
  }
}

const fault = (name: string) => CRUD_FAULTS.find((f) => f.name === name)!;

describe.concurrent('junit.xml', () => {
  test('a passing run: valid against junit-10.xsd, every test a plain testcase', async () => {
    const run = await runSuite([]);
    expect(run.exitCode, explain(run)).toBe(0);
    expect(schemaProblems(run)).toBe('');
    expectSameTests(run);
    expect(testcases(run).filter((c) => c.inner !== '' && !c.inner.startsWith('<skipped')), 'no failure, error or warning').toEqual([]);
  });

  test('a failing run: valid, the failure once, with a one-line message and no serialized error', async () => {
    const run = await runAgainst(fault('retrieve-drops-description').make(), ['--only', 'CRUD,AUTH-1']);
    expect(run.exitCode, explain(run)).toBe(1);
    expect(schemaProblems(run)).toBe('');
    expectSameTests(run);
    const failed = testcases(run).filter((c) => c.inner.startsWith('<failure'));
    expect(failed.length, explain(run)).toBeGreaterThan(0);
    for (const c of failed) {
      const message = /<failure [^>]*message="([^"]*)"/.exec(c.element)?.[1] ?? '';
      expect(message, 'a message attribute').not.toBe('');
      expect(unescape(message), 'one line').not.toMatch(/[\n\r]/);
      const body = unescape(/<failure [^>]*>([\s\S]*)<\/failure>/.exec(c.inner)?.[1] ?? '');
      expect(body.startsWith(unescape(message)), 'the body begins with the message').toBe(true);
      expect(body.split(unescape(message)).length - 1, 'the text once').toBe(1);
      expect(body).toContain('expected:');
      expect(body).not.toContain('Serialized Error');
    }
  });

  test('a run with --only: valid, and holds only the selected rules', async () => {
    const run = await runSuite(['--only', 'AUTH-1,PAGE-3']);
    expect(run.exitCode, explain(run)).toBe(0);
    expect(schemaProblems(run)).toBe('');
    expectSameTests(run);
    const rules = new Set(testcases(run).map((c) => c.name.split(' ')[0]));
    expect(rules).toEqual(new Set(['AUTH-1', 'PAGE-3']));
  });

  test('a run interrupted by SIGINT: valid, and the tests it never ran are skipped, none a passed testcase', async () => {
    let interrupt!: () => void;
    const midway = new Promise<void>((resolve) => (interrupt = resolve));
    let requests = 0;
    const service = new (class extends ReferenceService {
      override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
        // Far enough in that every suite file has started, well before the end (~1,700 requests).
        if ((requests += 1) === 150) interrupt();
        return super.handle(req, res);
      }
    })();
    const run = await runAgainst(serve(service), [], { interrupt: { signal: 'SIGINT', when: midway } });
    expect(run.exitCode, explain(run)).toBe(130);
    expect(schemaProblems(run)).toBe('');
    expectSameTests(run);
    const notRun = testcases(run).filter((c) => c.inner === '<skipped message="not run: the run was interrupted by SIGINT"/>');
    expect(notRun.length, 'tests the interruption left unrun').toBeGreaterThan(0);
  });
});
