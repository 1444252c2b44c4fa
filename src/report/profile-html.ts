/**
 * The profile section of conformance.html (docs/profile.md). Every value from the server goes
 * through escapeHtml; the section is its own module so the formatters can change around it.
 */
import { escapeHtml } from './html-text.ts';
import type { RunReport } from './model.ts';
import { settleWindowLine } from './profile-md.ts';

/** The CSS the section needs, added to the page's style sheet. */
export const PROFILE_STYLE = `
table.profile { border-collapse: collapse; margin: 8px 0 16px; }
table.profile th, table.profile td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
table.profile td.unseen { color: var(--muted); font-style: italic; }
`;

/** The settle-window notice, when lists were given one. */
export function settleNoticeHtml(report: RunReport): string {
  const line = settleWindowLine(report.profile?.listSettleMs);
  return line ? `<p class="notice" data-settle="${report.profile?.listSettleMs}">${escapeHtml(line)}</p>` : '';
}

/** The section: empty for a report without a profile. */
export function profileHtml(report: RunReport): string {
  const profile = report.profile;
  if (!profile) return '';
  const rows = profile.entries.map((e) => {
    const counts = e.values.length > 1 ? ` title="${escapeHtml(e.values.map((v) => `${v.value}: ${v.count}`).join('; '))}"` : '';
    const value = e.observed ? `<td${counts}>${escapeHtml(e.value)}</td>` : `<td class="unseen">not observed${e.note ? ` (${escapeHtml(e.note)})` : ''}</td>`;
    return `<tr data-profile-key="${escapeHtml(e.key)}"><td>${escapeHtml(e.topic)}</td><td>${escapeHtml(e.label)}</td>${value}<td>${e.exchanges.map(escapeHtml).join(' ')}</td></tr>`;
  });
  return `<h2 id="profile">Interoperability profile</h2>
<p>What this implementation chose where the spec is silent: data, not a verdict. The exchanges are in exchanges.har, each under its <code>_id</code>.</p>
<table class="profile"><thead><tr><th>Topic</th><th>Choice</th><th>Observed</th><th>Exchanges</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
