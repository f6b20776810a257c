import { SALES } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { SALES_FIGURES } from './figures/sales.figures';
import { BY_DAY, BY_STORE_SOLD } from './grain';
import { rollupReport } from './rollup-report';

export default defineReport({
  route: 'profit',
  operation: 'getProfitReport',
  title: 'Profit',
  description: 'Revenue (net of refunds, excl. tax), COGS from the unit cost snapshotted on each sale line (net of returns), gross profit and margin per day.',
  permission: 'reports.profit',
  ...rollupReport({
    table: SALES,
    figures: SALES_FIGURES,
    summary: ['revenue', 'cogs', 'gross_profit', 'margin_percent', 'markup_percent'],
    rows: { grain: BY_DAY, columns: ['date', 'currency', 'revenue', 'cogs', 'gross_profit', 'margin_percent'] },
    charts: [
      { type: 'line', title: 'Gross profit per day', metric: 'gross_profit' },
      { type: 'bar', title: 'Gross profit by store', metric: 'gross_profit', grain: BY_STORE_SOLD, x: 'store_name' },
    ],
  }),
});
