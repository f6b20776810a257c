import { ProductReportsService } from '../../application/product-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'products/abc',
  operation: 'getProductsAbcReport',
  title: 'Products: ABC',
  description: 'Items ranked by revenue per currency; class A while the cumulative share is <= 80%, B <= 95%, C the rest.',
  permission: 'reports.inventory',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(ProductReportsService).abc(ctx.principal, ctx.filters),
});
