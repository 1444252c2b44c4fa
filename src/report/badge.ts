/**
 * badge.svg: a shields-style badge for a project README, "widget-conformance 0.1.0 |
 * CONFORMANT" or "| NOT CONFORMANT: 3 failing": the verdict's own word (verdict.ts). Plain SVG with no script, link, font or image, so it shows the
 * same wherever it is embedded. Widths come from a per-character estimate: a badge must not
 * depend on the fonts of the machine that draws it.
 */
import { xmlAttr, xmlText } from './junit.ts';
import type { RunReport } from './model.ts';

const COLOUR = { good: '#1a7f37', bad: '#cf222e', unsure: '#8250df', partial: '#9a6700', label: '#555' } as const;

/** The badge's right half: the verdict's own word (verdict.ts), with the count of failing rules beside NOT CONFORMANT. */
export function badgeStatus(report: RunReport): { text: string; colour: string } {
  const { word } = report.verdictDetail;
  const failing = report.rules.filter((r) => r.outcome === 'fail').length;
  switch (report.verdict) {
    case 'conformant':
      return { text: word, colour: COLOUR.good };
    case 'partial':
      // A run of some rules says nothing of the rest: never "conformant" on a partial run.
      return { text: word, colour: COLOUR.partial };
    case 'not-conformant':
      return { text: failing > 0 ? `${word}: ${failing} failing` : word, colour: COLOUR.bad };
    default:
      return { text: word, colour: COLOUR.unsure };
  }
}

/** Approximate width of text in 11 px Verdana: wide letters count more, so the text fits. */
function widthOf(text: string): number {
  let w = 0;
  for (const c of text) w += /[mwMW@%]/.test(c) ? 10 : /[A-Z0-9#]/.test(c) ? 8 : /[il.,:;|' ]/.test(c) ? 4 : 7;
  return w + 10;
}

/** Renders the run's badge as an SVG document. */
export function renderBadge(report: RunReport): string {
  const label = `widget-conformance ${report.suiteVersion}`;
  const status = badgeStatus(report);
  const [lw, sw] = [widthOf(label), widthOf(status.text)];
  const title = `${label}: ${status.text} (${report.implementation})`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + sw}" height="20" role="img" aria-label="${xmlAttr(title)}">
<title>${xmlText(title)}</title>
<rect width="${lw}" height="20" fill="${COLOUR.label}"/><rect x="${lw}" width="${sw}" height="20" fill="${status.colour}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="14">${xmlText(label)}</text><text x="${lw + sw / 2}" y="14">${xmlText(status.text)}</text>
</g></svg>
`;
}
