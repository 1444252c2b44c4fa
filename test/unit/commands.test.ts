/**
 * Commands that cannot fetch (issue 36): every command line the suite prints for a user to paste
 * (rerun, replay, cleanup, help) runs the installed suite or fails with one line, and the docs
 * show no other. Pasted where the package is absent, a plain `npx widget-conformance …` asks the
 * public registry for that name, and without a terminal installs whatever is published under it,
 * with both tokens in its environment. Checked on every format rendered from a failing run's
 * report (the console, conformance.json, .md, .html, junit.xml), on --help and the subcommands'
 * usage, and on README.md, docs/ and examples/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCleanup } from '../../src/cli/run/final-cleanup.ts';
import { REPLAY_USAGE } from '../../src/cli/run/replay.ts';
import { rerunSettings, withReruns } from '../../src/cli/run/reruns.ts';
import { renderSummary } from '../../src/cli/run/summary.ts';
import { COMPARE_USAGE } from '../../src/cli/compare/compare.ts';
import { helpText, resolveConfig } from '../../src/config.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import type { CleanupReport } from '../../src/report/model.ts';
import { INSTALLED_COMMAND, localSuiteCommand, suiteCommand } from '../../src/report/rerun.ts';
import { outcomesOf, reportOf, testOf } from './support/report.ts';

/** A command that may fetch a package: npx without --no-install (a local tarball is named as such), npm exec, pnpm dlx, yarn dlx, bunx. */
const FETCHING = /\bnpx\s+(?!--no-install\b|--package\s+\S+\.tgz\b)\S+|\bnpm\s+exec\b|\b(?:pnpm|yarn)\s+dlx\b|\bbunx\b/g;

/** Every command that may fetch in a text (a command split over lines too), with the line it starts on. */
function fetching(text: string): string[] {
  return [...text.matchAll(FETCHING)].map((m) => `line ${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
}

/** A failing run's report, rendered in every format, and its console, as the runner makes them. */
function everyOutput(): Record<string, string> {
  const config = resolveConfig(['--base-url', 'https://widgets.example/v1', '--seed', '7'], { WIDGET_TOKEN: 'tok-Primary-0123456789', WIDGET_SECOND_TOKEN: 'tok-Second-0123456789' }, { envFile: '/nonexistent/.env' });
  const outcomes = withReruns(outcomesOf([testOf('ISO-2', 'fail'), testOf('PAGE-9', 'warn', { warnings: ['PAGE-9 …'] }), testOf('CRUD-1', 'pass')]), rerunSettings(config, false, false), { reportDir: 'reports', suiteVersion: '0.1.0', recordedAt: new Date() });
  const cleanup: CleanupReport = { deleted: 2, problems: ['the list walk stopped'], leftovers: [{ account: 'primary', id: 'w1', reason: 'not proven gone' }], kept: [{ account: 'second', id: 'w2', reason: 'kept by --keep-failing' }], verified: false };
  const report = reportOf(outcomes, { exitCode: 1, cleanup });
  return {
    console: renderSummary(report, { seconds: 1, reports: [], settingsFile: 'none', cleanup: describeCleanup(cleanup, 'reports/widget-journal-x.jsonl') }),
    'conformance.json': renderJson(report),
    'conformance.md': renderMarkdown(report),
    'conformance.html': renderHtml(report),
    'junit.xml': renderJunit(report),
    '--help': helpText(),
    'replay --help': REPLAY_USAGE,
    'compare --help': COMPARE_USAGE,
  };
}

describe('commands the suite prints', () => {
  it('start with a command that runs this suite: its checkout\'s bin here, `npx --no-install widget-conformance` where installed', () => {
    expect(localSuiteCommand(PROJECT_ROOT)).toBe('node bin/widget-conformance.mjs');
    expect(localSuiteCommand('/nowhere')).toBe(suiteCommand(join(PROJECT_ROOT, 'bin', 'widget-conformance.mjs')));
    expect(suiteCommand(undefined)).toBe(INSTALLED_COMMAND);
    expect(INSTALLED_COMMAND).toBe('npx --no-install widget-conformance');
    // A path sh would split is one word.
    expect(suiteCommand('/home/a b/suite/bin/widget-conformance.mjs')).toBe("node '/home/a b/suite/bin/widget-conformance.mjs'");
  });

  it('in every format of a failing run, in --help and the usage lines: none fetches a package, and the rerun, replay and cleanup lines start with the suite command', () => {
    const outputs = everyOutput();
    for (const [name, text] of Object.entries(outputs)) expect(fetching(text), name).toEqual([]);
    const command = localSuiteCommand();
    // The check above is not vacuous: the lines a user pastes are there, each starting with the suite command.
    expect(outputs.console).toContain(`replay: ${command} replay reports/replay/ISO-2-1.json`);
    expect(outputs.console).toContain(`rerun: ${command} --base-url https://widgets.example/v1 --only ISO-2`);
    expect(outputs.console).toContain(`\`${command} cleanup --base-url …\``);
    expect(outputs['conformance.md']).toContain(`${command} cleanup --base-url …`);
    expect(outputs['conformance.md']).toContain(`${command} replay reports/replay/PAGE-9-1.json`);
    expect(JSON.parse(outputs['conformance.json']!).command).toBe(command);
    expect(outputs.console).not.toMatch(/npm run cleanup/);
  });

  it('the pattern finds what fetches', () => {
    expect(fetching('run `npx widget-conformance --base-url x`\nthen npm exec foo, pnpm dlx bar, yarn dlx baz, bunx qux')).toHaveLength(5);
    expect(fetching('npx \\\n  widget-conformance')).toHaveLength(1);
    expect(fetching('npx --no-install widget-conformance; npx --package ./widget-conformance-0.1.0.tgz widget-conformance')).toEqual([]);
  });
});

/** The Markdown, text and YAML files a user reads. */
function docs(): string[] {
  const under = (dir: string): string[] => readdirSync(join(PROJECT_ROOT, dir)).filter((f) => /\.(md|ya?ml)$/.test(f)).map((f) => join(dir, f));
  return ['README.md', '.env.example', ...under('docs'), ...under('examples')];
}

describe('the docs', () => {
  it.each(docs())('%s shows no command that fetches a package', (file) => {
    expect(fetching(readFileSync(join(PROJECT_ROOT, file), 'utf8'))).toEqual([]);
  });
});
