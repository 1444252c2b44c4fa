/**
 * The reusable GitHub Action (action.yml) and the example workflow that uses it: both valid
 * against SchemaStore's schemas for them (vendored in test/support/schemastore/, Apache-2.0), and
 * every statement they make about the suite's options held to src/config/options.ts OPTIONS: an input that
 * maps to an option names its flag, passes it (or its variable, for a token), and states the
 * option's default; every flag either file mentions exists. Running the steps is
 * test/e2e/action.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule, { type ErrorObject } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { cleanupBudgetMs } from '../../src/cli/run/cleanup-after-tests.ts';
import { OPTIONS } from '../../src/config.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { loadAction } from '../support/action-file.ts';

const ACTION_TEXT = readFileSync(join(PROJECT_ROOT, 'action.yml'), 'utf8');
const WORKFLOW_TEXT = readFileSync(join(PROJECT_ROOT, 'examples/github-actions.yml'), 'utf8');
const action = loadAction();

type Json = Record<string, unknown>;
/** ajv's draft-07 class (SchemaStore's schemas are draft-07); a CommonJS default export seen from ESM. */
const Ajv = AjvModule.default;

function validator(schema: 'github-action' | 'github-workflow'): (value: unknown) => string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const validate = ajv.compile(JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/support/schemastore', `${schema}.json`), 'utf8')) as Json);
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath} ${e.message ?? ''}`));
}

/** Each action input that stands for a suite option, and that option's flag. */
const INPUT_OPTIONS: Readonly<Record<string, `--${string}`>> = {
  'base-url': '--base-url',
  token: '--token',
  'second-token': '--second-token',
  'without-second-token': '--without-second-token',
  baseline: '--baseline',
  strict: '--strict',
  'report-dir': '--report-dir',
};

const runStep = action.runs.steps.find((s) => s.id === 'run')!;

describe('action.yml and the example workflow against SchemaStore\'s schemas', () => {
  test('action.yml is a valid action metadata file', () => {
    expect(validator('github-action')(parse(ACTION_TEXT))).toEqual([]);
  });

  test('the example workflow is a valid workflow', () => {
    expect(validator('github-workflow')(parse(WORKFLOW_TEXT))).toEqual([]);
  });

  test('the validators refuse what GitHub refuses: a composite run step without shell, a job without runs-on', () => {
    const broken = parse(ACTION_TEXT) as { runs: { steps: Json[] } };
    delete broken.runs.steps.find((s) => 'run' in s)!.shell;
    expect(validator('github-action')(broken)).not.toEqual([]);
    const workflow = parse(WORKFLOW_TEXT) as { jobs: Record<string, Json> };
    delete workflow.jobs.conformance!['runs-on'];
    expect(validator('github-workflow')(workflow)).not.toEqual([]);
  });
});

describe('action.yml holds to the suite\'s options', () => {
  test.each(Object.entries(INPUT_OPTIONS))('input %s names %s, which exists, and states its default', (input, flag) => {
    const def = OPTIONS.find((o) => o.flag === flag);
    expect(def, `${flag} in OPTIONS`).toBeDefined();
    const spec = action.inputs[input]!;
    expect(spec, `input ${input}`).toBeDefined();
    expect(spec.description).toContain(`(${flag}`);
    if (def!.kind === 'bool') {
      expect(def!.default).toBe(false);
      expect(spec.default).toBe('false');
      expect(spec.description).toContain("Default 'false'");
    } else if (typeof def!.default === 'string') {
      expect(spec.default).toBe(def!.default);
      expect(spec.description).toContain(`Default '${def!.default}'`);
    } else if (spec.required) {
      expect(spec.default).toBeUndefined();
    } else {
      // No default in OPTIONS: the input's empty default means "not given".
      expect(spec.default).toBe('');
    }
  });

  test('tokens reach the suite only as its environment variables, every other mapped input as its flag', () => {
    for (const [input, flag] of Object.entries(INPUT_OPTIONS)) {
      const def = OPTIONS.find((o) => o.flag === flag)!;
      if (def.secret) {
        expect(runStep.env?.[def.env!], `${input} as ${def.env}`).toBe(`\${{ inputs.${input} }}`);
        const added = (runStep.run ?? '').split('\n').filter((line) => /\bargs\+?=\(/.test(line));
        expect(added.length).toBeGreaterThan(0);
        expect(added.filter((line) => new RegExp(`${flag}\\b`).test(line)), `${flag} never on the command line`).toEqual([]);
      } else {
        expect(runStep.run).toContain(flag);
      }
    }
    // Every input reaches a script through env: (an expression inside a script would run a value as shell).
    for (const step of action.runs.steps) expect(step.run ?? '', step.name).not.toContain('${{');
  });

  test('every flag named in action.yml and the example workflow is a suite option', () => {
    const known = new Set(OPTIONS.map((o) => o.flag));
    for (const [file, text] of [['action.yml', ACTION_TEXT], ['examples/github-actions.yml', WORKFLOW_TEXT]] as const) {
      // Flags of other tools the files name: npm's, bin/build.mjs's and docker's own.
      const others = ['--no-audit', '--no-fund', '--omit', '--prefer-offline', '--cache', '--no-save', '--no-package-lock', '--prefix', '--check', '--tail', '--no-color', '--build', '--volumes'];
      const mentioned = [...text.matchAll(/(?<![\w-])--[a-z][a-z-]+/g)].map((m) => m[0]).filter((f) => !others.includes(f));
      expect(mentioned.filter((f) => !known.has(f as `--${string}`)), file).toEqual([]);
    }
  });

  test('the second token\'s statements agree with OPTIONS: without it the run stops with exit 2, unless --without-second-token', () => {
    const without = OPTIONS.find((o) => o.flag === '--without-second-token')!;
    expect(without.description).toContain('a run with no second token stops with exit 2 before any request');
    expect(OPTIONS.find((o) => o.flag === '--second-token')!.defaultText).toContain('stops with exit 2, unless --without-second-token');
    expect(action.inputs['second-token']!.description).toMatch(/stops with exit code 2 before any request, unless without-second-token/);
    expect(WORKFLOW_TEXT).toMatch(/Without it the\s+#\s+run stops before any request with exit code 2, unless the step sets\s+#\s+without-second-token: 'true'/);
    expect(WORKFLOW_TEXT, 'the old, false statement').not.toMatch(/isolation rules[^\n]*skipped/);
  });
});

describe('the example workflow', () => {
  const workflow = parse(WORKFLOW_TEXT) as { jobs: Record<string, { 'timeout-minutes'?: number; steps: Array<{ uses?: string; if?: string; with?: Record<string, string> }> }> };
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
  const suite = steps.filter((s) => /\/widget-conformance@/.test(s.uses ?? ''));
  const runs = suite.filter((s) => (s.with?.mode ?? 'run') === 'run');
  const cleanups = suite.filter((s) => s.with?.mode === 'cleanup');

  test('runs the suite with one uses: step of this action, its inputs known to action.yml, the tokens from secrets', () => {
    expect(runs).toHaveLength(1);
    for (const used of suite) expect(Object.keys(used.with ?? {}).filter((k) => !(k in action.inputs))).toEqual([]);
    expect(runs[0]!.with).toMatchObject({ token: '${{ secrets.WIDGET_TOKEN }}', 'second-token': '${{ secrets.WIDGET_SECOND_TOKEN }}' });
    // The commented-out inputs it offers exist too.
    for (const [, name] of WORKFLOW_TEXT.matchAll(/^\s*# ([a-z-]+): /gm)) expect(action.inputs, name).toHaveProperty(name!);
  });

  test('cleans up after a cancelled job: a second use of the action with mode: cleanup, if: cancelled(), against the same target with the same tokens and report directory', () => {
    expect(cleanups).toHaveLength(1);
    const [cleanup] = cleanups;
    expect(cleanup!.if).toBe('cancelled()');
    for (const input of ['base-url', 'token', 'second-token', 'report-dir']) expect(cleanup!.with?.[input], input).toBe(runs[0]!.with?.[input]);
    expect(steps.indexOf(cleanup!), 'after the run').toBeGreaterThan(steps.indexOf(runs[0]!));
    expect(action.inputs.mode!.description).toMatch(/'run' \(the default\)[\s\S]*'cleanup'/);
  });

  test('its job timeout exceeds the suite\'s deadline, its final cleanup and the setup: a slow target ends with the suite\'s report, not a killed job', () => {
    const [job] = Object.values(workflow.jobs);
    const given = /--max-run-time[ =](\d+)/.exec(runs[0]!.with?.args ?? '');
    const maxRunTime = OPTIONS.find((o) => o.flag === '--max-run-time')!;
    const deadlineMs = given ? Number(given[1]) : (maxRunTime.default as number);
    const timeout = OPTIONS.find((o) => o.flag === '--timeout')!.default as number;
    // Setup: the service's start (the example waits up to 60 s), the install, the report writing.
    const setupMs = 5 * 60_000;
    expect(job!['timeout-minutes']! * 60_000).toBeGreaterThanOrEqual(deadlineMs + cleanupBudgetMs(timeout) + setupMs);
  });

  test('no step clones, installs or calls the suite by hand any more', () => {
    for (const step of steps as Array<{ run?: string }>) {
      expect(step.run ?? '').not.toMatch(/npm test|widget-conformance/);
      // Values reach scripts through env:, as in action.yml, so that the example teaches that.
      expect(step.run ?? '').not.toContain('${{');
    }
    expect(steps.filter((s) => s.uses?.startsWith('actions/upload-artifact') || s.uses?.startsWith('mikepenz/'))).toEqual([]);
  });
});

describe('the install: what running needs, never the test toolchain', () => {
  const scripts = action.runs.steps.map((st) => st.run ?? '').join('\n');
  const npmCommands = scripts.split('\n').map((l) => l.trim()).filter((l) => /^npm /.test(l));

  test('npm ci of the runtime dependencies, and an install of TypeScript alone at the lockfile\'s version, both through the suite\'s npm cache; nothing else', () => {
    expect(npmCommands).toHaveLength(2);
    expect(npmCommands[0]).toMatch(/^npm ci --omit=dev .*--cache "\$CONFORMANCE_NPM_CACHE"$/);
    expect(npmCommands[1]).toMatch(/^npm install --no-save .*--cache "\$CONFORMANCE_NPM_CACHE" --prefix "\$compiler" "typescript@\$version"$/);
    expect(scripts).toContain(`version=$(node -p "require('./package-lock.json').packages['node_modules/typescript'].version")`);
    // Only when dist/ must be compiled.
    expect(scripts).toMatch(/if ! node bin\/build\.mjs --check; then[\s\S]*npm install[\s\S]*\nfi\n/);
  });

  test('npm\'s cache is actions/cache keyed on the action\'s own lockfile (setup-node\'s cache cannot hash a file outside the workspace), restored before the install and saved right after it (not at the end of a job that may fail), all skipped once installed', () => {
    const setupNode = action.runs.steps.find((st) => st.uses?.startsWith('actions/setup-node@'))!;
    expect(setupNode.with ?? {}).not.toHaveProperty('cache');
    const restore = action.runs.steps.find((st) => st.uses?.startsWith('actions/cache/restore@'))!;
    const save = action.runs.steps.find((st) => st.uses?.startsWith('actions/cache/save@'))!;
    const where = { path: '${{ steps.install-state.outputs.npm-cache }}', key: '${{ steps.install-state.outputs.key }}' };
    expect(restore.with).toEqual(where);
    expect(save.with).toEqual(where);
    expect(action.runs.steps.filter((st) => st.uses?.startsWith('actions/cache@')), 'no save at the job\'s end').toEqual([]);
    const install = action.runs.steps.find((st) => st.name === 'Install the conformance suite')!;
    for (const st of [restore, install]) expect(st.if).toBe("steps.install-state.outputs.installed != 'true'");
    expect(save.if).toBe(`steps.install-state.outputs.installed != 'true' && steps.${restore.id}.outputs.cache-hit != 'true'`);
    const at = (st: unknown) => action.runs.steps.indexOf(st as (typeof action.runs.steps)[number]);
    expect([at(restore), at(install), at(save)]).toEqual([at(restore), at(restore) + 1, at(restore) + 2]);
  });

  test('the runtime dependencies hold no package of the test toolchain', () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const tool of ['typescript', '@stryker-mutator/core', 'playwright-core', '@seriousme/openapi-schema-validator', 'yaml']) expect(pkg.dependencies, tool).not.toHaveProperty(tool);
  });
});

describe('docs/ci.md', () => {
  const page = readFileSync(join(PROJECT_ROOT, 'docs/ci.md'), 'utf8');

  test('its input table lists every input of action.yml with its default, and no other', () => {
    const rows = [...page.matchAll(/^\| `([a-z-]+)` \| ([^|]+) \|/gm)].map((m) => [m[1]!, m[2]!.trim()] as const);
    expect(rows.map(([name]) => name).sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [name, stated] of rows) {
      const spec = action.inputs[name]!;
      const expected = spec.required ? 'required' : spec.default === '' ? 'empty' : spec.default!;
      expect(stated.replace(/^`'?|'?`$/g, ''), name).toBe(expected);
    }
  });

  test('it names every output of action.yml', () => {
    for (const name of Object.keys(action.outputs)) expect(page, name).toContain(`\`${name}\``);
  });
});
