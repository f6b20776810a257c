import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { aliasOf, metric, METRICS, MetricKey } from './metrics';
import { withMetricsTable } from './metrics-readme';
import { columnsOf, DIMENSIONS, figure, row } from './report-figures';

// The partner's guide holds "Report figures" (it moved there from the README with the docs/ split).
const README = join(__dirname, '../../../../docs/partner.md');
const UNITS = ['money', 'count', 'quantity', 'percent', 'days', 'ratio'];

describe('metric catalogue', () => {
  const keys = Object.keys(METRICS) as MetricKey[];

  it('defines every key once, with a label, a unit and a formula; an alias names a defined figure', () => {
    for (const key of keys) {
      const m = metric(key);
      expect([key, m.label.length > 0, UNITS.includes(m.unit), m.formula.length > 0]).toEqual([key, true, true, true]);
      const same = aliasOf(key);
      if (same) expect([key, aliasOf(same)]).toEqual([key, null]);
    }
    // A key is either a figure or what a row is about, never both.
    expect(keys.filter((k) => k in DIMENSIONS)).toEqual([]);
  });

  it('makes figures and columns from the catalogue', () => {
    expect(figure('net_sales', 12.5, 'USD')).toEqual({ key: 'net_sales', label: 'Net sales (before tax)', value: 12.5, unit: 'money', currency: 'USD' });
    expect(figure('refunds', 1, 'USD')).toMatchObject({ label: 'Refunds incl. tax', unit: 'money' });
    expect(figure('taken_{method}', 3, 'USD', { method: 'cash' })).toMatchObject({ key: 'taken_cash', label: 'Taken by cash' });
    expect(columnsOf([row({ date: '2026-01-01', net_sales: 1 }), row({ refund_net: 2 })])).toEqual([
      { key: 'date', label: 'Business day', unit: null },
      { key: 'net_sales', label: 'Net sales (before tax)', unit: 'money' },
      { key: 'refund_net', label: 'Refunds (before tax)', unit: 'money' },
    ]);
    // A misspelt key does not compile: `npx tsc` checks these lines (never run).
    const compileOnly = () => {
      // @ts-expect-error not a catalogued figure
      figure('net_sale', 1);
      // @ts-expect-error not a catalogued figure or dimension
      row({ net_sale: 1 });
      // @ts-expect-error a template key needs its values
      figure('taken_{method}', 1, 'USD');
    };
    expect(typeof compileOnly).toBe('function');
  });

  it('docs/partner.md "Report figures" is the table generated from the catalogue', () => {
    const readme = readFileSync(README, 'utf8');
    const generated = withMetricsTable(readme);
    // UPDATE_REPORT_FIGURES=1 npx jest libs/integration/src/domain/metrics.spec.ts rewrites it after a catalogue change.
    if (process.env.UPDATE_REPORT_FIGURES === '1' && generated !== readme) writeFileSync(README, generated);
    else expect(readme).toBe(generated);
    for (const key of keys) expect(readme).toContain(`| \`${key}\` |`);
  });
});
