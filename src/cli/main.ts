/**
 * `npm test`: the conformance run. Resolves the config, picks the target (the embedded
 * reference server when no --base-url is given), checks once that it can be reached, runs
 * the suites, sweeps up what the run created, writes the reports and exits:
 * 0 conformant, 1 a rule failed, 2 usage or configuration error, 3 the suite could not run.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { Vitest } from 'vitest/node';
import { WidgetApi } from '../api.ts';
import { ConfigError, helpText, redactedConfig, resolveConfig, secretsOf, type SuiteConfig } from '../config.ts';
import { isSuiteError } from '../errors.ts';
import { HttpClient, type ClientStats } from '../http/client.ts';
import { Redactor } from '../http/redact.ts';
import { newMarker } from '../harness/marker.ts';
import type { SuiteSettings } from '../harness/settings.ts';
import { markCancelled } from '../harness/cancel.ts';
import { startReferenceServer, type RunningServer } from '../reference/server.ts';
import { readBaseline } from '../baseline.ts';
import { buildReport } from '../report/build.ts';
import type { RunReport } from '../report/model.ts';
import { renderHtml } from '../report/html.ts';
import { renderMarkdown } from '../report/markdown.ts';
import { RULES } from '../rules.ts';
import { parseOnly, testNamePattern } from '../selection.ts';
import { sweep, type SweepResult } from '../sweep.ts';
import { walkBudget } from '../walk.ts';
import { collectOutcomes, exitCodeOf } from './outcomes.ts';
import { probe } from './probe.ts';
import { redactProcessOutput } from './redact-output.ts';
import { runSuites } from './run-vitest.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { renderSummary } from './summary.ts';


const VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function fail(message: string, code: number): never {
  process.stderr.write(`widget-conformance: ${message}\n`);
  process.exit(code);
}

function printCatalogue(): void {
  for (const r of RULES) process.stdout.write(`${r.id.padEnd(7)} ${r.level.padEnd(6)} ${r.section.padEnd(38)} ${r.statement}\n`);
}

interface Target {
  readonly baseUrl: string;
  readonly token: string;
  readonly secondToken?: string;
  readonly label: string;
  readonly server?: RunningServer;
}

async function chooseTarget(config: SuiteConfig): Promise<Target> {
  if (config.baseUrl && config.token) {
    return { baseUrl: config.baseUrl, token: config.token, ...(config.secondToken ? { secondToken: config.secondToken } : {}), label: config.baseUrl };
  }
  const server = await startReferenceServer();
  process.stdout.write(`\n▶ No --base-url given: testing the embedded reference server at ${server.baseUrl}\n\n`);
  return { baseUrl: server.baseUrl, token: server.tokens[0], secondToken: server.tokens[1], label: 'embedded reference server', server };
}

function readStats(dir: string): ClientStats {
  const total: ClientStats = { requests: 0, retries: 0, rateLimitWaitMs: 0 };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const s = JSON.parse(readFileSync(join(dir, file), 'utf8')) as ClientStats;
    total.requests += s.requests;
    total.retries += s.retries;
    total.rateLimitWaitMs += s.rateLimitWaitMs;
  }
  return total;
}

async function main(): Promise<number> {
  let config: SuiteConfig;
  try {
    config = resolveConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }
  if (config.help) {
    process.stdout.write(`${helpText()}\n`);
    return 0;
  }
  if (config.list) {
    printCatalogue();
    return 0;
  }
  let only: ReadonlySet<string> | undefined;
  let baseline: ReadonlySet<string> | undefined;
  try {
    only = parseOnly(config.only);
    baseline = config.baseline === undefined ? undefined : readBaseline(config.baseline);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }
  const started = new Date();
  const target = await chooseTarget(config);
  const secrets = [...secretsOf(config), target.token, ...(target.secondToken ? [target.secondToken] : [])];
  const redactor = new Redactor(secrets);
  redactProcessOutput(redactor);

  const client = new HttpClient({ ...config, baseUrl: target.baseUrl, secrets });
  const primary = new WidgetApi(client, target.token, 'primary');
  const second = target.secondToken ? new WidgetApi(client, target.secondToken, 'second') : undefined;
  const reportDir = resolve(config.reportDir);
  const statsDir = mkdtempSync(join(tmpdir(), 'widget-conformance-'));
  let vitest: Vitest | undefined;
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) {
      process.stderr.write(`widget-conformance: second ${signal}: exiting without cleanup; \`npm run cleanup\` with the same target deletes what this run left\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    interrupted = signal;
    process.stderr.write(`\nwidget-conformance: ${signal} received: stopping the run, then deleting what it created\n`);
    markCancelled(statsDir, signal);
    void vitest?.cancelCurrentRun('keyboard-input');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    try {
      await probe(primary, config.token ? '--token / WIDGET_TOKEN' : 'the reference server token');
      if (second) await probe(second, '--second-token / WIDGET_SECOND_TOKEN');
    } catch (error) {
      if (!isSuiteError(error)) throw error;
      const code = (error as { code?: string }).code === 'ERR_TOKEN_REJECTED' ? 2 : 3;
      process.stderr.write(`widget-conformance: ${redactor.text((error as Error).message)}\n`);
      return code;
    }

    const marker = newMarker();
    const settings: SuiteSettings = {
      baseUrl: target.baseUrl,
      token: target.token,
      ...(target.secondToken ? { secondToken: target.secondToken } : {}),
      targetLabel: target.label,
      timeoutMs: config.timeoutMs,
      concurrency: config.concurrency,
      maxRetries: config.maxRetries,
      maxRetryWaitMs: config.maxRetryWaitMs,
      strict: config.strict,
      clockToleranceMs: config.clockToleranceMs,
      maxWidgets: config.maxWidgets,
      propertyBudgetMs: config.propertyBudgetMs,
      ...(config.only ? { only: config.only } : {}),
      seed: config.seed,
      runs: config.runs,
      marker,
      statsDir,
    };
    mkdirSync(reportDir, { recursive: true });
    const junitFile = join(reportDir, 'junit.xml');
    process.stdout.write(`Run marker ${marker}; seed ${config.seed}${config.seedGiven ? '' : ' (random: pass --seed to replay)'}\n`);
    vitest = await runSuites({ settings, junitFile, ...(only ? { testNamePattern: testNamePattern(only) } : {}), onStart: (v) => {
      vitest = v;
      // vitest's logger exits the process on SIGINT/SIGTERM, which would skip the cleanup.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        for (const listener of process.listeners(signal)) if (listener !== onSignal) process.off(signal, listener);
      }
      if (interrupted) void v.cancelCurrentRun('keyboard-input');
    } });
    const outcomes = collectOutcomes(vitest.state.getTestModules(), vitest.state.getUnhandledErrors(), only);
    await vitest.close();

    // Belt and braces: whatever the tests could not delete, and any widget whose create answer was lost.
    const sweeps: SweepResult[] = [];
    // After an interruption a create still in flight may land after the first walk: walk twice.
    for (let pass = interrupted ? 2 : 1; pass > 0; pass -= 1) {
      for (const api of [primary, ...(second ? [second] : [])]) sweeps.push(await sweep(api, marker, walkBudget(config.maxWidgets)));
    }
    const cleanupProblems = sweeps.flatMap((s) => s.problems.map((p) => `${s.account} account: ${p}`));
    const sweptCount = sweeps.reduce((n, s) => n + s.deleted.length, 0);

    const stats = readStats(statsDir);
    stats.requests += client.stats.requests;
    stats.retries += client.stats.retries;
    stats.rateLimitWaitMs += client.stats.rateLimitWaitMs;
    let exitCode = exitCodeOf(outcomes, baseline);
    if (interrupted) exitCode = interrupted === 'SIGINT' ? 130 : 143;
    const report = buildReport(
      {
        suiteVersion: VERSION,
        target: target.label,
        baseUrl: target.baseUrl,
        startedAt: started,
        finishedAt: new Date(),
        seed: config.seed,
        config: redactedConfig(config),
        strict: config.strict,
        stats,
        exitCode,
        interrupted: interrupted !== undefined,
        cleanup: { deleted: sweptCount, problems: cleanupProblems },
        ...(baseline && config.baseline ? { baseline: { file: config.baseline, ids: baseline } } : {}),
      },
      outcomes,
    );
    const files = writeReports(reportDir, report, redactor);
    // The JUnit file holds worker-side text; scrub it too rather than trust every path that wrote it.
    writeFileSync(junitFile, redactor.text(readFileSync(junitFile, 'utf8')));

    const cleanup =
      cleanupProblems.length === 0
        ? `nothing left behind${sweptCount ? ` (the final sweep deleted ${sweptCount} marked widget(s))` : ''}`
        : `PROBLEMS: ${cleanupProblems.join('; ')} — run \`npm run cleanup\` with the same target`;
    process.stdout.write(
      `${renderSummary(outcomes, {
        target: target.label,
        requests: stats.requests,
        retries: stats.retries,
        waitMs: stats.rateLimitWaitMs,
        seconds: (Date.now() - started.getTime()) / 1000,
        reports: [junitFile, ...files].map((f) => relative(process.cwd(), f) || f),
        baseline: report.baseline,
        exitCode,
        cleanup,
      })}\n`,
    );
    return exitCode;
  } finally {
    rmSync(statsDir, { recursive: true, force: true });
    await client.close();
    await target.server?.close();
  }
}

/** Writes conformance.json, .md and .html (and appends the Markdown to a GitHub job summary); returns their paths. */
function writeReports(dir: string, report: RunReport, redactor: Redactor): string[] {
  const json = join(dir, 'conformance.json');
  const md = join(dir, 'conformance.md');
  const html = join(dir, 'conformance.html');
  const markdown = redactor.text(renderMarkdown(report));
  writeFileSync(json, redactor.text(`${JSON.stringify(report, null, 2)}\n`));
  writeFileSync(md, markdown);
  writeFileSync(html, redactor.text(renderHtml(report)));
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary) appendFileSync(summary, `${markdown}\n`);
  return [json, md, html];
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => fail(`internal error: ${(error as Error)?.stack ?? String(error)}`, 3),
);
