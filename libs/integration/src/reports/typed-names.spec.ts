import type { RollupReader } from '../application/rollup.ports';
import { sumOf } from '../application/rollup.ports';
import { figure } from '../domain/report-figures';
import { SALES, TAX } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { SALES_FIGURES } from './figures/sales.figures';
import type { FigureSet } from './formula';
import { BY_DAY } from './grain';
import { rollupReport } from './rollup-report';

/**
 * A misspelt measure, column or figure does not compile: each `@ts-expect-error` below fails
 * `npm run typecheck` ("unused directive") the day the name it misspells would be accepted.
 * At run time the spec only checks that the correct spellings work.
 */
describe('report names are checked when compiling', () => {
  const reader = { sum: async () => [{ day: 20_000, currency_code: 'USD', net: 5 }] } as unknown as RollupReader;

  it('a rollup query names only its table’s measures and columns, and its rows only those', async () => {
    const rows = await sumOf(reader, { table: SALES, from: 0, to: 1, groupBy: ['day', 'currency_code'], measures: ['net'] });
    expect(rows[0].net + rows[0].day).toBe(20_005);
    expect(rows[0].currency_code.toLowerCase()).toBe('usd');
    // @ts-expect-error 'nett' is not a measure of rpt_sales
    void sumOf(reader, { table: SALES, from: 0, to: 1, groupBy: [], measures: ['nett'] });
    // @ts-expect-error 'rate_bp' is a column of rpt_tax, not of rpt_sales
    void sumOf(reader, { table: SALES, from: 0, to: 1, groupBy: ['rate_bp'], measures: ['net'] });
    void sumOf(reader, { table: TAX, from: 0, to: 1, groupBy: ['rate_bp'], measures: ['taxable'] });
    // @ts-expect-error the row has only the measures asked for
    void rows[0].tax;
  });

  it('a formula reads only its table’s measures', () => {
    const ok: FigureSet<'net' | 'tax'> = { net_sales: (r) => r.net };
    // @ts-expect-error 'nett' is not a measure of the table
    const misspelt: FigureSet<'net' | 'tax'> = { net_sales: (r) => r.nett };
    expect(Object.keys({ ...ok, ...misspelt })).toEqual(['net_sales']);
  });

  it('a figure, a summary and a column name a catalogued metric or dimension', () => {
    expect(figure('net_revenue', 1, 'USD').label).toBe('Net revenue (before tax)');
    // @ts-expect-error 'net_revenu' is not in the metric catalogue
    expect(() => figure('net_revenu', 1, 'USD')).toThrow(TypeError);
    const spec = {
      table: SALES,
      figures: SALES_FIGURES,
      rows: { grain: BY_DAY, columns: ['date', 'net_sales'] as const },
      charts: [],
    };
    expect(rollupReport({ ...spec, summary: ['net_sales'] }).summary).toEqual(['net_sales']);
    // @ts-expect-error 'net_sale' is not a figure of the sales figure set
    rollupReport({ ...spec, summary: ['net_sale'] });
    // @ts-expect-error 'dat' is neither a figure nor a dimension
    rollupReport({ ...spec, summary: [], rows: { grain: BY_DAY, columns: ['dat'] } });
    const base = {
      route: 'x',
      operation: 'x',
      title: 'x',
      description: 'x',
      summary: [],
      columns: [],
      build: async () => ({ summary: [], rows: [], charts: [] }),
    };
    expect(defineReport({ ...base, permission: 'reports.sales' }).route).toBe('x');
    // @ts-expect-error 'reports.sale' is not a permission
    defineReport({ ...base, permission: 'reports.sale' });
  });
});
