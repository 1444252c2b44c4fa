/** Writes the run's reports, each passed through the redactor once more on the way out. */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../http/redact.ts';
import { renderBadge } from '../report/badge.ts';
import { renderHar } from '../report/har.ts';
import { renderHtml } from '../report/html.ts';
import { renderJunit } from '../report/junit.ts';
import { renderMarkdown } from '../report/markdown.ts';
import type { RunReport } from '../report/model.ts';

function reason(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code ?? e.message ?? String(error);
}

/**
 * Writes junit.xml, conformance.json, .md, .html, exchanges.har and badge.svg, appends the Markdown to a GitHub job
 * summary. Redaction is the last step before each byte is written, after every format's own
 * escaping. Returns the paths written and one line per file that could not be.
 */
export function writeReports(dir: string, report: RunReport, redactor: Redactor): { files: string[]; problems: string[] } {
  const files: string[] = [];
  const problems: string[] = [];
  const write = (file: string, render: () => string, append = false): void => {
    try {
      const text = redactor.text(render());
      if (append) appendFileSync(file, text);
      else writeFileSync(file, text);
      if (!append) files.push(file);
    } catch (error) {
      problems.push(`could not write ${file}: ${reason(error)}`);
    }
  };
  write(join(dir, 'junit.xml'), () => renderJunit(report));
  write(join(dir, 'conformance.json'), () => `${JSON.stringify(report, null, 2)}\n`);
  write(join(dir, 'conformance.md'), () => renderMarkdown(report));
  write(join(dir, 'conformance.html'), () => renderHtml(report));
  write(join(dir, 'exchanges.har'), () => renderHar(report));
  write(join(dir, 'badge.svg'), () => renderBadge(report));
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary) write(summary, () => `${renderMarkdown(report)}\n`, true);
  return { files, problems };
}
