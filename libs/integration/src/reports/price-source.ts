import { ProductReportsService } from '../application/product-reports.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'price-source',
  operation: 'getPriceSourceReport',
  title: 'Price source',
  description: 'Sale lines by how they were priced (base, price_book, pricing_rule, bundle, manual, offline): lines, units, gross, discounts, net, shares.',
  permission: 'reports.inventory',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(ProductReportsService).priceSource(ctx.principal, ctx.filters),
});
