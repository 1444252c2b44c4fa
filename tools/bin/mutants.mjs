#!/usr/bin/env node
// `npm run mutate:survivors`: the mutants of the last `npm run mutate` that the suite let
// live, one markdown row each (file:line:column, mutator, the code as mutated), read from
// reports/mutation/mutation.json: the rows docs/mutants.md classifies. Plain JavaScript, no imports beyond node:.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../bin/build.mjs';

const REPORT = join(ROOT, 'reports', 'mutation', 'mutation.json');
let report;
try {
  report = JSON.parse(readFileSync(REPORT, 'utf8'));
} catch (error) {
  process.stderr.write(`widget-mutants: cannot read ${REPORT} (run npm run mutate first): ${error.message}\n`);
  process.exit(2);
}
const counts = {};
const rows = [];
for (const [file, { mutants }] of Object.entries(report.files)) {
  for (const m of mutants) {
    counts[m.status] = (counts[m.status] ?? 0) + 1;
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
    const where = `${file.replace(/^src\/reference\//, '')}:${m.location.start.line}:${m.location.start.column}`;
    const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 70);
    rows.push(`| ${where} | ${m.mutatorName} | \`${replacement}\` |`);
  }
}
const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
const valid = detected + (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
process.stdout.write(`${Object.entries(counts).map(([s, n]) => `${s} ${n}`).join(', ')}; score ${((100 * detected) / valid).toFixed(1)}% (${detected} of ${valid})\n\n`);
process.stdout.write(`| mutant | mutator | mutated code |\n|---|---|---|\n${rows.join('\n')}\n`);
