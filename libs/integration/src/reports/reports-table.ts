import type { ReportDefinition } from './definition';

export const REPORTS_BEGIN = '<!-- reports:begin (generated from libs/integration/src/reports by reports-table.spec.ts; do not edit by hand) -->';
export const REPORTS_END = '<!-- reports:end -->';

/** The docs' report table: one line per report of the registry, in its order. */
export function reportsTable(reports: readonly ReportDefinition[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const list = (keys: readonly string[]) => keys.map((k) => `\`${k}\``).join(', ');
  const lines = ['| report | permission | what it shows | summary figures (per currency) | row fields |', '|---|---|---|---|---|'];
  for (const r of reports) {
    const route = r.route.replace(/:(\w+)/g, '{$1}');
    lines.push(`| ${route} | ${r.permission} | ${cell(r.description)} | ${list(r.summary)} | ${list(r.columns)} |`);
  }
  return lines.join('\n');
}

/** `doc` with its reports section replaced by the table (the section must exist). */
export function withReportsTable(doc: string, reports: readonly ReportDefinition[]): string {
  const begin = doc.indexOf(REPORTS_BEGIN);
  const end = doc.indexOf(REPORTS_END);
  if (begin < 0 || end < begin) throw new Error('The document has no reports section');
  return `${doc.slice(0, begin + REPORTS_BEGIN.length)}\n${reportsTable(reports)}\n${doc.slice(end)}`;
}
