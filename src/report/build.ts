/** Builds the run's report from the outcomes the runner collected. */
import type { Outcome, RunOutcomes } from './model.ts';
import type { RequestAccount } from '../shared/request-account.ts';
import type { ClientStats } from '../shared/client-stats.ts';
import { emptyCounts, type CleanupReport, type RuleReport, type RunReport } from './model.ts';
import { narrowingOf, runVerdict } from './verdict.ts';
import { catalogueHash, INTERFACE_VERSION } from './catalogue-hash.ts';
import { RULES } from '../rules.ts';
import { headlineOf, rootCauses } from './root-causes.ts';
import { localSuiteCommand } from './rerun.ts';
import type { ProfileReport } from './profile.ts';

export interface RunInfo {
  readonly suiteVersion: string;
  /** The suite command the run's printed commands start with (rerun.ts suiteCommand); this process's when absent. */
  readonly command?: string;
  readonly target: string;
  readonly baseUrl: string;
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly seed: number;
  readonly config: Record<string, unknown>;
  readonly strict: boolean;
  readonly stats: ClientStats;
  /** Where the requests went, by origin (cli/run/request-account.ts). */
  readonly requestsBy?: RequestAccount;
  readonly exitCode: number;
  readonly interrupted: boolean;
  readonly cleanup: CleanupReport;
  readonly baseline?: { file: string; ids: ReadonlySet<string> };
  /** --implementation; absent: the base URL's host. */
  readonly implementation?: string;
  /** The interoperability profile the workers recorded (profile.ts). */
  readonly profile?: ProfileReport;
  /** Rules not run because the run had no second account (--without-second-token). */
  readonly notRun?: readonly string[];
  /** How the run chose its tests (RunReport.selection); a test filter or --last-failed makes the run partial. */
  readonly selection?: RunReport['selection'];
}

/** The base URL's host (with its port): the label of an implementation nobody named. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

/** The report document of a run. */
export function buildReport(info: RunInfo, outcomes: RunOutcomes): RunReport {
  const summary = { MUST: emptyCounts(), SHOULD: emptyCounts() };
  for (const r of outcomes.rules) summary[r.rule.level][r.outcome] += 1;
  const failing = (o: Outcome): boolean => o === 'fail';
  const baselineIds = info.baseline?.ids;
  const knownFailures = baselineIds ? outcomes.rules.filter((r) => baselineIds.has(r.rule.id) && failing(r.outcome)).length : 0;
  const causes = rootCauses(
    outcomes.rules.map((r) => {
      const headline = headlineOf(r.tests);
      const inconclusive = r.tests.filter((t) => t.outcome === 'inconclusive');
      const dependsOn = [...new Set(inconclusive.flatMap((t) => t.dependsOn ?? []))];
      const observedNothing = inconclusive.filter((t) => t.observedNothing).length;
      return {
        id: r.rule.id,
        outcome: r.outcome,
        dependsOn,
        ...(observedNothing > 0 ? { observedNothing: { tests: observedNothing, of: r.tests.length } } : {}),
        ...(headline ? { headline } : {}),
        ...(r.intermittent ? { intermittent: true } : {}),
      };
    }),
  );
  const rules: RuleReport[] = outcomes.rules.map((r) => ({
    id: r.rule.id,
    level: r.rule.level,
    section: r.rule.section,
    statement: r.rule.statement,
    basis: r.rule.basis,
    outcome: r.outcome,
    ...(baselineIds?.has(r.rule.id) ? { baselined: true } : {}),
    ...(causes.inconclusive.has(r.rule.id) ? { inconclusive: causes.inconclusive.get(r.rule.id) } : {}),
    ...(r.intermittent ? { intermittent: true } : {}),
    ...(r.secondAttempt ? { secondAttempt: r.secondAttempt } : {}),
    tests: r.tests.map((t) => ({
      title: t.title,
      file: t.file,
      outcome: t.outcome,
      durationMs: t.durationMs,
      ...(t.failures.length ? { failures: t.failures } : {}),
      ...(t.outcome === 'error' || t.outcome === 'inconclusive' ? { errors: t.messages } : {}),
      ...(t.dependsOn ? { dependsOn: t.dependsOn } : {}),
      ...(t.seenBy ? { seenBy: t.seenBy } : {}),
      ...(t.warnings.length ? { warnings: t.warnings } : {}),
      ...(t.skipReason ? { skipReason: t.skipReason } : {}),
      ...(t.runs ? { runs: t.runs } : {}),
      ...(t.rerun ? { rerun: t.rerun } : {}),
      ...(t.replay ? { replay: { file: t.replay.file, command: t.replay.command } } : {}),
      ...(t.requests ? { requests: t.requests } : {}),
    })),
  }));
  // Computed once, from the rules as reported: every format prints this value (verdict.ts).
  const narrowed = narrowingOf(info.selection);
  const verdict = runVerdict({ interrupted: info.interrupted, exitCode: info.exitCode, knownFailures, rules, catalogue: RULES, ...(info.notRun ? { notRun: info.notRun } : {}), ...(narrowed ? { narrowed } : {}) });
  return {
    suite: 'widget-conformance',
    suiteVersion: info.suiteVersion,
    interfaceVersion: INTERFACE_VERSION,
    catalogue: { hash: catalogueHash(RULES), rules: RULES.length },
    implementation: info.implementation ?? hostOf(info.baseUrl),
    // Data: rules of the catalogue absent or not run, or tests narrowed by a name filter. The verdict (verdictDetail) also counts checks cut short.
    partial: RULES.some((rule) => !outcomes.rules.some((r) => r.rule.id === rule.id)) || (info.notRun?.length ?? 0) > 0
      || (info.selection?.test?.length ?? 0) > 0 || info.selection?.lastFailed === true,
    ...(info.selection ? { selection: info.selection } : {}),
    ...(info.notRun?.length ? { notRun: info.notRun } : {}),
    target: info.target,
    baseUrl: info.baseUrl,
    startedAt: info.startedAt.toISOString(),
    finishedAt: info.finishedAt.toISOString(),
    durationMs: info.finishedAt.getTime() - info.startedAt.getTime(),
    seed: info.seed,
    config: info.config,
    requests: info.stats.requests,
    ...(info.requestsBy ? { requestsBy: info.requestsBy } : {}),
    retries: info.stats.retries,
    rateLimitWaitMs: info.stats.rateLimitWaitMs,
    refused: info.stats.refused ?? 0,
    pacedRate: info.stats.pacedRate ?? null,
    verdict: verdict.kind,
    verdictDetail: verdict,
    gate: { passed: info.exitCode === 0, knownFailures },
    exitCode: info.exitCode,
    strict: info.strict,
    summary,
    ...(info.baseline && baselineIds
      ? {
          baseline: {
            file: info.baseline.file,
            expectedFailures: outcomes.rules.filter((r) => baselineIds.has(r.rule.id) && failing(r.outcome)).map((r) => r.rule.id),
            nowPassing: outcomes.rules.filter((r) => baselineIds.has(r.rule.id) && (r.outcome === 'pass' || r.outcome === 'warn')).map((r) => r.rule.id),
          },
        }
      : {}),
    rules,
    rootCauses: causes.groups,
    suiteErrors: outcomes.suiteErrors,
    cleanup: info.cleanup,
    ...(info.profile ? { profile: info.profile } : {}),
    command: info.command ?? localSuiteCommand(),
  };
}
