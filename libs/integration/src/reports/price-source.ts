import { PRICE_SOURCES } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { PRICE_SOURCE_FIGURES } from './figures/price-sources.figures';
import { BY_PRICE_SOURCE } from './grain-codes';
import { rollupReport } from './rollup-report';

const SOURCES = ['base', 'price_book', 'pricing_rule', 'bundle', 'manual', 'offline'];

export default defineReport({
  route: 'price-source',
  operation: 'getPriceSourceReport',
  title: 'Price source',
  description: 'Sale lines by how they were priced (base, price_book, pricing_rule, bundle, manual, offline): lines, units, gross, discounts, net, shares.',
  permission: 'reports.inventory',
  ...rollupReport({
    table: PRICE_SOURCES,
    figures: PRICE_SOURCE_FIGURES,
    summary: ['lines', 'net_sales', { metric: '{source}_share', vars: SOURCES.map((source) => ({ source })) }],
    rows: {
      grain: BY_PRICE_SOURCE,
      columns: ['price_source', 'currency', 'lines', 'units', 'gross_sales', 'discounts', 'net_sales', 'share_of_lines', 'share_of_net_sales'],
      rankBy: 'net_sales',
    },
    charts: [{ type: 'pie', title: 'Net sales by price source', metric: 'net_sales', grain: BY_PRICE_SOURCE, x: 'price_source' }],
  }),
});
