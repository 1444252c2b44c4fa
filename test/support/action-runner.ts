/**
 * Runs the composite action in action.yml as a GitHub runner would, as far as one can here: each
 * `run:` step's script with bash (`bash --noprofile --norc -eo pipefail`, GitHub's command for
 * `shell: bash`), in the workspace, with the step's `env:` evaluated and the variables a runner
 * sets (GITHUB_OUTPUT and GITHUB_STEP_SUMMARY fresh per step, GITHUB_ENV, GITHUB_PATH,
 * GITHUB_WORKSPACE, GITHUB_ACTION_PATH, RUNNER_TEMP, CI, GITHUB_ACTIONS). A step that `uses:` another
 * action cannot run here: its `if:` and `with:` are evaluated and returned for the test to check.
 * Expressions are evaluated for the subset action.yml uses (contexts inputs, steps, github,
 * strategy, matrix; always(), success(), toJSON(), ==, !=, &&, ||, string literals); anything else
 * throws, so a new expression cannot pass unevaluated.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { loadAction, type ActionFile, type ActionStep } from './action-file.ts';

export { loadAction };

/** What one step did. */
export interface StepResult {
  readonly name: string;
  /** False when its `if:` was false. */
  readonly ran: boolean;
  /** Set for `run:` steps that ran. */
  readonly exitCode?: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** What the step wrote to its GITHUB_OUTPUT. */
  readonly outputs: Record<string, string>;
  /** What the step appended to its GITHUB_STEP_SUMMARY. */
  readonly summary: string;
  /** For `uses:` steps: the action and its evaluated `with:`. */
  readonly uses?: string;
  readonly with?: Record<string, string>;
}

/** The whole action run. */
export interface ActionRun {
  readonly steps: readonly StepResult[];
  /** The action's outputs, evaluated from its `outputs:` as the runner does after the last step. */
  readonly outputs: Record<string, string>;
  /** A step failed (the job would be red). */
  readonly failed: boolean;
  readonly workspace: string;
  readonly runnerTemp: string;
  /** The inputs as the steps saw them: the given ones and the defaults. */
  readonly inputs: Record<string, string>;
}

/** Parses a GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) body.push(lines[i]!);
      out[heredoc[1]!] = body.join('\n');
      continue;
    }
    const at = line.indexOf('=');
    if (at < 0) throw new Error(`GITHUB_OUTPUT line is neither name=value nor name<<DELIMITER: ${JSON.stringify(line)}`);
    out[line.slice(0, at)] = line.slice(at + 1);
  }
  return out;
}

interface Contexts {
  readonly inputs: Record<string, string>;
  readonly steps: Record<string, { outputs: Record<string, string> }>;
  readonly github: Record<string, string>;
  /** The job's matrix entry: null outside a matrix, as on GitHub. */
  readonly matrix: Record<string, unknown> | null;
  readonly strategy: Record<string, string>;
  /** Whether every step so far succeeded (for success()). */
  readonly ok: boolean;
}

/** The value of one operand: a string literal, a function call or a context path. */
function operand(text: string, ctx: Contexts): string | boolean {
  const t = text.trim();
  const literal = /^'((?:[^']|'')*)'$/.exec(t);
  if (literal) return literal[1]!.replaceAll("''", "'");
  if (t === 'always()') return true;
  if (t === 'success()') return ctx.ok;
  if (t === 'failure()') return !ctx.ok;
  if (t === 'true' || t === 'false') return t === 'true';
  // GitHub's toJSON pretty-prints, two spaces a level.
  if (t === 'toJSON(matrix)') return JSON.stringify(ctx.matrix, null, 2);
  const path = t.split('.');
  if (path[0] === 'strategy' && path.length === 2) return ctx.strategy[path[1]!] ?? '';
  if (path[0] === 'inputs' && path.length === 2) return ctx.inputs[path[1]!] ?? '';
  if (path[0] === 'github' && path.length === 2) return ctx.github[path[1]!] ?? '';
  if (path[0] === 'steps' && path[2] === 'outputs' && path.length === 4) return ctx.steps[path[1]!]?.outputs[path[3]!] ?? '';
  throw new Error(`expression not supported by this runner: ${JSON.stringify(t)}`);
}

/** Evaluates an expression of the supported subset (|| of && of comparisons or operands). */
export function evaluate(expression: string, ctx: Contexts): string | boolean {
  const ors = expression.split('||');
  if (ors.length > 1) return ors.some((part) => truthy(evaluate(part, ctx)));
  const ands = expression.split('&&');
  if (ands.length > 1) return ands.every((part) => truthy(evaluate(part, ctx)));
  const cmp = /^(.*?)(==|!=)(.*)$/.exec(expression);
  if (cmp) {
    // Comparisons of strings are case-insensitive in GitHub's expressions.
    const same = String(operand(cmp[1]!, ctx)).toLowerCase() === String(operand(cmp[3]!, ctx)).toLowerCase();
    return cmp[2] === '==' ? same : !same;
  }
  return operand(expression, ctx);
}

function truthy(value: string | boolean): boolean {
  return value !== '' && value !== false;
}

/** Replaces every `${{ … }}` in `text`. */
function substitute(text: string, ctx: Contexts): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => String(evaluate(expression, ctx)));
}

/** A step's `if:`: absent means success(); a status function present means no implicit success(). */
function shouldRun(step: ActionStep, ctx: Contexts): boolean {
  if (step.if === undefined) return ctx.ok;
  const expression = step.if.replace(/^\$\{\{(.*)\}\}$/s, '$1');
  const value = truthy(evaluate(expression, ctx));
  return /\b(always|failure|success|cancelled)\(\)/.test(expression) ? value : value && ctx.ok;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

/** Options of one emulated run. */
export interface RunActionOptions {
  /** The `with:` of the caller's `uses:` step. */
  readonly with: Record<string, string>;
  /** The caller's workspace (default: a fresh folder). */
  readonly workspace?: string;
  /** Prepended to PATH (e.g. a folder with a stand-in `npm`). */
  readonly pathPrefix?: string;
  /** The environment the runner's steps start from. */
  readonly baseEnv: Record<string, string>;
  /** The action to run (default: action.yml as it is): a test may alter it to prove a check can fail. */
  readonly action?: ActionFile;
  /** The action's checkout (GITHUB_ACTION_PATH; default: this repository). */
  readonly actionPath?: string;
  /** The job's id (GITHUB_JOB; default `conformance`). */
  readonly job?: string;
  /** The job's matrix entry and its index, for a job of a matrix. */
  readonly matrix?: { readonly values: Record<string, unknown>; readonly index: number };
}

/** Runs action.yml's steps in order, as a runner would. */
export async function runAction(options: RunActionOptions): Promise<ActionRun> {
  const action = options.action ?? loadAction();
  const root = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'wcs-action-'));
  const workspace = options.workspace ?? join(root, 'workspace');
  const runnerTemp = join(root, 'runner-temp');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(runnerTemp, { recursive: true });
  const inputs: Record<string, string> = {};
  for (const [name, def] of Object.entries(action.inputs)) {
    const given = options.with[name];
    if (given === undefined && def.required) throw new Error(`required input ${name} not given`);
    inputs[name] = given ?? def.default ?? '';
  }
  for (const name of Object.keys(options.with)) if (!(name in action.inputs)) throw new Error(`unknown input ${name}`);
  const actionPath = options.actionPath ?? PROJECT_ROOT;
  const job = options.job ?? 'conformance';
  const github = { action_path: actionPath, workspace, job };
  const matrix = options.matrix?.values ?? null;
  const strategy = { 'job-index': String(options.matrix?.index ?? 0) };
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  const results: StepResult[] = [];
  let ok = true;
  for (const [index, step] of action.runs.steps.entries()) {
    const ctx: Contexts = { inputs, steps, github, matrix, strategy, ok };
    const name = step.name ?? step.uses ?? `step ${index}`;
    if (!shouldRun(step, ctx)) {
      results.push({ name, ran: false, stdout: '', stderr: '', outputs: {}, summary: '' });
      continue;
    }
    if (step.uses !== undefined) {
      const withValues = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
      results.push({ name, ran: true, stdout: '', stderr: '', outputs: {}, summary: '', uses: step.uses, with: withValues });
      continue;
    }
    if (step.shell !== 'bash') throw new Error(`${name}: only shell: bash is emulated`);
    const dir = join(runnerTemp, `step-${index}`);
    mkdirSync(dir);
    const files = { output: join(dir, 'output'), summary: join(dir, 'summary'), env: join(dir, 'env'), path: join(dir, 'path'), script: join(dir, 'script.sh') };
    for (const file of [files.output, files.summary, files.env, files.path]) writeFileSync(file, '');
    // The runner writes the script to a file with its expressions already substituted.
    writeFileSync(files.script, substitute(step.run ?? '', ctx));
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
    const env: Record<string, string> = {
      ...options.baseEnv,
      ...(options.pathPrefix ? { PATH: `${options.pathPrefix}:${options.baseEnv.PATH ?? ''}` } : {}),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_JOB: job,
      RUNNER_OS: 'Linux',
      RUNNER_ARCH: 'X64',
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_ENV: files.env,
      GITHUB_PATH: files.path,
      RUNNER_TEMP: runnerTemp,
      ...stepEnv,
    };
    const cwd = step['working-directory'] ? substitute(step['working-directory'], ctx) : workspace;
    const ran = await bash(files.script, cwd, env);
    const outputs = parseOutputFile(readFileSync(files.output, 'utf8'));
    if (step.id) steps[step.id] = { outputs };
    if (ran.exitCode !== 0) ok = false;
    results.push({ name, ran: true, exitCode: ran.exitCode, stdout: ran.stdout, stderr: ran.stderr, outputs, summary: readFileSync(files.summary, 'utf8') });
  }
  const finalCtx: Contexts = { inputs, steps, github, matrix, strategy, ok };
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, def]) => [k, substitute(def.value, finalCtx)]));
  return { steps: results, outputs, failed: !ok, workspace, runnerTemp, inputs };
}
