/**
 * The profile section of conformance.md (docs/profile.md): folded, so a pull-request comment
 * stays short. Every value from the server is an inert code span (markdown-text.ts).
 */
import { codeSpan, mdText } from './markdown-text.ts';
import type { RunReport } from './model.ts';
import type { ProfileReport } from './profile.ts';

/** "Lists judged with a settle window of N ms", or nothing when lists were judged at once. */
export function settleWindowLine(listSettleMs: number | undefined): string | undefined {
  return listSettleMs ? `Lists judged with a settle window of ${listSettleMs} ms (--list-settle-ms): a list that caught up within it was accepted` : undefined;
}

function table(profile: ProfileReport): string[] {
  const rows = profile.entries.map((e) => `| ${mdText(e.topic, 40)} | ${mdText(e.label, 80)} | ${e.observed ? codeSpan(e.value, 200, true) : `_not observed_${e.note ? ` (${mdText(e.note, 300)})` : ''}`} | ${e.exchanges.map((x) => mdText(x, 40)).join(' ')} |`);
  return ['| Topic | Choice | Observed | Exchanges (HAR `_id`) |', '|---|---|---|---|', ...rows];
}

/** The section's lines: nothing for a report without a profile (an older suite's). */
export function profileMarkdown(report: RunReport): string[] {
  const profile = report.profile;
  if (!profile) return [];
  const seen = profile.entries.filter((e) => e.observed).length;
  return [
    '',
    '### Interoperability profile',
    '',
    `What this implementation chose where the spec is silent: data, not a verdict. ${seen} of ${profile.entries.length} choices observed; the exchanges are in \`exchanges.har\` by \`_id\`.`,
    '',
    '<details><summary>The profile</summary>',
    '',
    ...table(profile),
    '',
    '</details>',
  ];
}
