import { ProductReportsService } from '../application/product-reports.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'products',
  operation: 'getProductsReport',
  title: 'Products',
  description: 'Per item: units sold and returned, gross, discounts, net sales, refunds, revenue, tax, COGS, gross profit, margin; by revenue.',
  permission: 'reports.inventory',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(ProductReportsService).products(ctx.principal, ctx.filters),
});
