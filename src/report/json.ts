/**
 * reports/conformance.json: one machine-readable document per run (the self-tests and
 * dashboards read it). Everything in it is redacted.
 */
import type { RunOutcomes } from '../cli/outcomes.ts';
import type { ClientStats } from '../http/client.ts';

export interface RunInfo {
  readonly suiteVersion: string;
  readonly target: string;
  readonly baseUrl: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly seed: number;
  readonly config: Record<string, unknown>;
  readonly stats: ClientStats;
  readonly exitCode: number;
  readonly cleanup: { deleted: number; problems: string[] };
}

/** The conformance.json document of a run. */
export function buildJsonReport(info: RunInfo, outcomes: RunOutcomes): Record<string, unknown> {
  const count = (o: string): number => outcomes.rules.filter((r) => r.outcome === o).length;
  return {
    suite: 'widget-conformance',
    suiteVersion: info.suiteVersion,
    target: info.target,
    baseUrl: info.baseUrl,
    startedAt: info.startedAt,
    finishedAt: info.finishedAt,
    seed: info.seed,
    config: info.config,
    requests: info.stats.requests,
    retries: info.stats.retries,
    rateLimitWaitMs: info.stats.rateLimitWaitMs,
    exitCode: info.exitCode,
    summary: { pass: count('pass'), fail: count('fail'), warn: count('warn'), skip: count('skip'), error: count('error') },
    rules: outcomes.rules.map((r) => ({
      id: r.rule.id,
      level: r.rule.level,
      section: r.rule.section,
      statement: r.rule.statement,
      outcome: r.outcome,
      tests: r.tests.map((t) => ({
        title: t.title,
        file: t.file,
        outcome: t.outcome,
        durationMs: t.durationMs,
        ...(t.messages.length ? { messages: t.messages } : {}),
        ...(t.warnings.length ? { warnings: t.warnings } : {}),
        ...(t.skipReason ? { skipReason: t.skipReason } : {}),
      })),
    })),
    suiteErrors: outcomes.suiteErrors,
    cleanup: info.cleanup,
  };
}
