import { figure, row } from '../domain/report-figures';
import { average, percent } from '../domain/report-math';
import type { ReportContext, ReportParts } from '../reports/definition';
import { chart, groupRows, n, total, perCurrency } from './report-kit';
import { SalesRollups } from './sales-rollups';

const CM = ['sales_count', 'net', 'total', 'on_account', 'return_count', 'refund_total'] as const;

/**
 * Customers (contract 4.10): sales to named customers. Their money is net sales before tax, as
 * every "revenue" and "net sales" figure is (customer_net_sales; it was customer_revenue, which
 * included tax); rows: the top 100 customers by total per currency. Figures: metrics.ts.
 */
export async function customersReport(ctx: ReportContext): Promise<ReportParts> {
  const { scope, money } = ctx;
  const [perCustomer, sold] = await Promise.all([
    ctx.kit.customerSums(scope, ['customer_id', 'currency_code'], CM),
    ctx.use(SalesRollups).sales(scope, [], ['sales_count', 'total', 'customer_count']),
  ]);
  const soldCur = groupRows(sold, 'currency_code');
  const ranked = perCustomer
    .filter((r) => n(r, 'sales_count') > 0 || n(r, 'return_count') > 0)
    .sort((a, b) => n(b, 'total') - n(a, 'total') || n(a, 'customer_id') - n(b, 'customer_id'));
  const top = scope.currencies.flatMap((c) => ranked.filter((r) => r.currency_code === c).slice(0, 100));
  const names = await ctx.kit.customers(top.map((r) => n(r, 'customer_id')));
  const summary = scope.currencies.flatMap((c) => {
    const list = ranked.filter((r) => r.currency_code === c);
    const t = total(list, CM);
    const s = total(soldCur.get(c) ?? [], ['sales_count', 'total', 'customer_count']);
    const served = list.filter((r) => n(r, 'sales_count') > 0).length;
    return [
      figure('customers_served', served, c),
      figure('customer_sales', n(t, 'sales_count'), c),
      figure('customer_sales_share', percent(n(t, 'sales_count'), n(s, 'sales_count')), c),
      figure('anonymous_sales', n(s, 'sales_count') - n(s, 'customer_count'), c),
      figure('customer_net_sales', money.v(n(t, 'net'), c), c),
      figure('net_sales_per_customer', money.of(average(n(t, 'net'), served), c), c),
      figure('on_account', money.v(n(t, 'on_account'), c), c),
      figure('customer_refunds', money.v(n(t, 'refund_total'), c), c),
    ];
  });
  const rows = top.map((r) => {
    const c = String(r.currency_code);
    return row({
      customer_id: n(r, 'customer_id'),
      customer_name: names.get(n(r, 'customer_id')) ?? null,
      currency: c,
      sales_count: n(r, 'sales_count'),
      net_sales: money.v(n(r, 'net'), c),
      total: money.v(n(r, 'total'), c),
      average_sale: money.of(average(n(r, 'total'), n(r, 'sales_count')), c),
      on_account: money.v(n(r, 'on_account'), c),
      returns: n(r, 'return_count'),
      refunds: money.v(n(r, 'refund_total'), c),
    });
  });
  const charts = [
    chart(
      'bar',
      'Top 10 customers (total incl. tax)',
      perCurrency(scope, (c) =>
        rows
          .filter((r) => r.currency === c)
          .slice(0, 10)
          .map((r) => ({ x: r.customer_name ?? String(r.customer_id), y: r.total })),
      ),
    ),
    chart(
      'pie',
      'Sales with and without a customer',
      scope.currencies.map((c) => {
        const s = total(soldCur.get(c) ?? [], ['sales_count', 'customer_count']);
        return {
          name: c,
          currency: c,
          data: [
            { x: 'with customer', y: n(s, 'customer_count') },
            { x: 'without', y: n(s, 'sales_count') - n(s, 'customer_count') },
          ],
        };
      }),
    ),
  ];
  return { summary, rows, charts };
}
