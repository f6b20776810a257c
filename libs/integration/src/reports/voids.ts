import { CASHIERS } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { CASHIER_FIGURES } from './figures/sales.figures';
import { BY_CASHIER } from './grain';
import { rollupReport } from './rollup-report';

export default defineReport({
  route: 'voids',
  operation: 'getVoidsReport',
  title: 'Voids',
  description: 'Voided sales (on the sale’s day) per cashier: count, total, void rate = voids / (voids + sales kept).',
  permission: 'reports.sales',
  ...rollupReport({
    table: CASHIERS,
    figures: CASHIER_FIGURES,
    summary: ['voids', 'voided_total', 'voided_net', 'voided_on_account', 'void_rate'],
    // Only the cashiers who voided; the summary's void rate counts every cashier's sales.
    rows: {
      grain: BY_CASHIER,
      columns: ['cashier_id', 'cashier_name', 'currency', 'voids', 'voided_total', 'sales_kept', 'void_rate'],
      rankBy: 'voids',
      only: 'voids',
    },
    charts: [
      // Every void is on its sale's cashier, so the cashier rollup's daily voids are the store's.
      { type: 'line', title: 'Voided sales per day', metric: 'voids' },
      { type: 'bar', title: 'Voids by cashier', metric: 'voids', grain: BY_CASHIER, x: ['cashier_name', 'cashier_id'] },
    ],
  }),
});
