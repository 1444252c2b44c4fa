/**
 * The bench's table of requests per rule, from a run's conformance.json: each test's requests
 * (its code's, and its widgets' cleanup: harness/request-tally.ts) added up by rule, and the
 * run's requests by origin (requestsBy), so a reader sees which rule costs what.
 */

/** What the table reads of conformance.json. */
export interface RequestsReport {
  readonly requests?: number;
  readonly requestsBy?: { readonly tests: number; readonly cleanup: number; readonly runner: number; readonly secondAttempt: number };
  readonly rules?: ReadonlyArray<{ readonly id: string; readonly tests?: ReadonlyArray<{ readonly requests?: { readonly sent: number; readonly cleanup: number } }> }>;
}

/** One rule's requests: those its tests sent, and their widgets' cleanup. */
export interface RuleRequests {
  readonly rule: string;
  readonly sent: number;
  readonly cleanup: number;
}

/** Each rule's requests, most first (ties in catalogue order). */
export function requestsPerRule(report: RequestsReport): RuleRequests[] {
  const rows = (report.rules ?? []).map((r) => ({
    rule: r.id,
    sent: (r.tests ?? []).reduce((n, t) => n + (t.requests?.sent ?? 0), 0),
    cleanup: (r.tests ?? []).reduce((n, t) => n + (t.requests?.cleanup ?? 0), 0),
  }));
  return rows.map((row, i) => ({ row, i })).sort((a, b) => b.row.sent + b.row.cleanup - (a.row.sent + a.row.cleanup) || a.i - b.i).map(({ row }) => row);
}

/** The table as Markdown (the README's Speed section shows it), with the run's other requests under it. */
export function requestsTable(report: RequestsReport): string {
  const rows = requestsPerRule(report);
  const lines = ['| rule | sent by its tests | cleanup of their widgets | total |', '|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.rule} | ${r.sent} | ${r.cleanup} | ${r.sent + r.cleanup} |`);
  const by = report.requestsBy;
  if (by) {
    const attributed = rows.reduce((n, r) => n + r.sent + r.cleanup, 0);
    const unowned = by.tests + by.cleanup - attributed;
    if (unowned > 0) lines.push(`| (workers, no test's) | | ${unowned} | ${unowned} |`);
    lines.push(`| (runner: first contact, inventory, final cleanup) | | | ${by.runner} |`);
    if (by.secondAttempt > 0) lines.push(`| (second attempt) | | | ${by.secondAttempt} |`);
  }
  if (report.requests !== undefined) lines.push(`| **all** | | | **${report.requests}** |`);
  return lines.join('\n');
}
