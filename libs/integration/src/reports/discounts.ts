import { SALES } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { SALES_FIGURES } from './figures/sales.figures';
import { BY_DAY } from './grain';
import { rollupReport } from './rollup-report';

export default defineReport({
  route: 'discounts',
  operation: 'getDiscountsReport',
  title: 'Discounts',
  description: 'Discounts by kind (pricing rules, bundles, manual line, cart) per day; discount rate and share of discounted sales.',
  permission: 'reports.sales',
  ...rollupReport({
    table: SALES,
    figures: SALES_FIGURES,
    summary: ['discounts', 'discounts_rule', 'discounts_bundle', 'discounts_manual', 'discounts_cart', 'discount_rate', 'discounted_sales', 'discounted_share'],
    rows: {
      grain: BY_DAY,
      columns: ['date', 'currency', 'gross_sales', 'pricing_rules', 'bundles', 'manual', 'cart', 'discounts', 'discount_rate', 'discounted_sales'],
    },
    charts: [
      {
        type: 'pie',
        title: 'Discounts by kind',
        slices: [
          { metric: 'discounts_rule', label: 'Pricing rules' },
          { metric: 'discounts_bundle', label: 'Bundles' },
          { metric: 'discounts_manual', label: 'Manual line discounts' },
          { metric: 'discounts_cart', label: 'Cart discounts' },
        ],
      },
      { type: 'line', title: 'Discounts per day', metric: 'discounts' },
    ],
  }),
});
