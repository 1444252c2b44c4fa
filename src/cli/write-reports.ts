/** Writes the run's reports, each passed through the redactor once more on the way out. */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../http/redact.ts';
import { renderHtml } from '../report/html.ts';
import { renderMarkdown } from '../report/markdown.ts';
import type { RunReport } from '../report/model.ts';

/** Writes conformance.json, .md and .html, scrubs junit.xml, appends the Markdown to a GitHub job summary; returns the paths. */
export function writeReports(dir: string, junitFile: string, report: RunReport, redactor: Redactor): string[] {
  const json = join(dir, 'conformance.json');
  const md = join(dir, 'conformance.md');
  const html = join(dir, 'conformance.html');
  const markdown = redactor.text(renderMarkdown(report));
  writeFileSync(json, redactor.text(`${JSON.stringify(report, null, 2)}\n`));
  writeFileSync(md, markdown);
  writeFileSync(html, redactor.text(renderHtml(report)));
  // The JUnit file holds worker-side text: scrub it too rather than trust every path that wrote it.
  writeFileSync(junitFile, redactor.text(readFileSync(junitFile, 'utf8')));
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary) appendFileSync(summary, `${markdown}\n`);
  return [junitFile, json, md, html];
}
