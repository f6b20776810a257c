import { aliasOf, metric, METRICS, MetricKey } from './metrics';

export const README_BEGIN = '<!-- report-figures:begin (generated from libs/integration/src/domain/metrics.ts by its spec; do not edit by hand) -->';
export const README_END = '<!-- report-figures:end -->';

/** README "Report figures": one line per catalogue key, in catalogue order (an alias says which figure it is). */
export function metricsTable(): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const lines = ['| key | label | unit | formula |', '|---|---|---|---|'];
  for (const key of Object.keys(METRICS) as MetricKey[]) {
    const m = metric(key);
    const same = aliasOf(key);
    const formula = same ? `same as \`${same}\`` : m.formula;
    lines.push(`| \`${key}\` | ${cell(m.label)} | ${m.unit} | ${cell(formula)} |`);
  }
  return lines.join('\n');
}

/** `readme` with its report-figures section replaced by the table (the section must exist). */
export function withMetricsTable(readme: string): string {
  const begin = readme.indexOf(README_BEGIN);
  const end = readme.indexOf(README_END);
  if (begin < 0 || end < begin) throw new Error('README has no report-figures section');
  return `${readme.slice(0, begin + README_BEGIN.length)}\n${metricsTable()}\n${readme.slice(end)}`;
}
