import { average, percent } from '../../domain/report-math';
import type { MeasureOf } from '../../domain/rollup-tables';
import { CASHIERS, SALES } from '../../domain/rollup-tables';
import type { FigureSet } from '../formula';

type S = MeasureOf<typeof SALES>;

const discounts = (r: Record<'discount_rule' | 'discount_bundle' | 'discount_manual' | 'discount_cart', number>) =>
  r.discount_rule + r.discount_bundle + r.discount_manual + r.discount_cart;

/** The sales figures of metrics.ts over the sales rollup (rpt_sales), in minor units. */
export const SALES_FIGURES = {
  sales_count: (r) => r.sales_count,
  units_sold: (r) => r.units,
  items_sold: (r) => r.units,
  gross_sales: (r) => r.gross,
  discounts: (r) => discounts(r),
  discounts_rule: (r) => r.discount_rule,
  discounts_bundle: (r) => r.discount_bundle,
  discounts_manual: (r) => r.discount_manual,
  discounts_cart: (r) => r.discount_cart,
  pricing_rules: (r) => r.discount_rule,
  bundles: (r) => r.discount_bundle,
  manual: (r) => r.discount_manual,
  cart: (r) => r.discount_cart,
  manual_discounts: (r) => r.discount_manual + r.discount_cart,
  discount_rate: (r) => percent(discounts(r), r.gross),
  discounted_sales: (r) => r.discounted_count,
  discounted_share: (r) => percent(r.discounted_count, r.sales_count),
  net_sales: (r) => r.net,
  tax: (r) => r.tax,
  total: (r) => r.total,
  average_sale: (r) => average(r.total, r.sales_count),
  refund_net: (r) => r.refund_net,
  refund_tax: (r) => r.refund_tax,
  refunds: (r) => r.refund_total,
  refund_total: (r) => r.refund_total,
  total_after_refunds: (r) => r.total - r.refund_total,
  net_revenue: (r) => r.net - r.refund_net,
  revenue: (r) => r.net - r.refund_net,
  average_daily_revenue: (r, x) => average(r.net - r.refund_net, x.scope.period.days),
  net_tax: (r) => r.tax - r.refund_tax,
  cogs: (r) => r.cost - r.refund_cost,
  gross_profit: (r) => r.net - r.refund_net - (r.cost - r.refund_cost),
  margin_percent: (r) => percent(r.net - r.refund_net - (r.cost - r.refund_cost), r.net - r.refund_net),
  markup_percent: (r) => percent(r.net - r.refund_net - (r.cost - r.refund_cost), r.cost - r.refund_cost),
  voids: (r) => r.void_count,
  voided_total: (r) => r.void_total,
  returns: (r) => r.return_count,
  stores: { of: [], value: (_r, x) => x.scope.stores.filter((s) => s.currencyCode === x.currency).length },
} satisfies FigureSet<S>;

type C = MeasureOf<typeof CASHIERS>;

/** The same figures over the cashier rollup (rpt_cashiers), which keeps a subset of the measures. */
export const CASHIER_FIGURES = {
  sales_count: (r) => r.sales_count,
  sales_kept: (r) => r.sales_count,
  items_sold: (r) => r.units,
  net_sales: (r) => r.net,
  total: (r) => r.total,
  average_sale: (r) => average(r.total, r.sales_count),
  discounts: (r) => discounts(r),
  manual_discounts: (r) => r.discount_manual + r.discount_cart,
  voids: (r) => r.void_count,
  voided_total: (r) => r.void_total,
  voided_net: (r) => r.void_net,
  voided_on_account: (r) => r.void_on_account,
  void_rate: (r) => percent(r.void_count, r.void_count + r.sales_count),
  returns_processed: (r) => r.return_count,
  refunds: (r) => r.refund_total,
  cashiers: { of: [], value: (_r, x) => x.groups.length },
} satisfies FigureSet<C>;
