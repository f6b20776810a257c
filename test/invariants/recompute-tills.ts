import { groupBy, PaymentRow, ReturnRow, SaleRow, sum } from './books';
import { count, Expected, Fig, figures, money, pct, qty, row, text } from './recompute-common';
import { avg, byDay, expected, net, refundNet, SalesScope, totals } from './recompute-sales';

/**
 * The sales reports by customer, tender, tax rate, drawer and cashier (definitions in
 * recompute-sales.ts), and these, where the texts leave a choice:
 * - a named customer is any but the walk-in; customer net sales are before tax (issue 23 item 6);
 *   customer refunds are what was paid back (incl. tax);
 * - tenders are the sales' payments (amount net of change; on account is a tender); refunds per
 *   method are the processed returns' refunds; later invoice payments belong to the invoice reports;
 * - an exempt sale (flagged, or to a customer whose record is exempt) is neither taxable nor in a
 *   rate row: its lines form the row `exempt` (issue 23 item 3); zero-rated lines are taxable at 0%;
 * - a cashier's manual discounts are those they keyed (line and cart); voids count for the cashier
 *   who rang the sale, returns for the user who processed them.
 */
export const paymentsOf = (x: SalesScope, sales: SaleRow[]): PaymentRow[] => {
  const ids = new Set(sales.map((s) => s.id));
  return x.books.payments.filter((p) => ids.has(p.sale_id));
};
export const refundsOf = (x: SalesScope, returns: ReturnRow[]) => {
  const ids = new Set(returns.map((r) => r.id));
  return x.books.refunds.filter((r) => ids.has(r.return_id));
};

export function customersReport(x: SalesScope): Expected {
  const c = x.store.currency_code;
  const named = (id: number | null) => id !== null && !(x.books.customers.get(id)?.walkIn ?? false);
  const sales = x.kept.filter((s) => named(s.customer_id));
  const customerOf = (r: ReturnRow) => x.saleOf.get(r.sale_id)?.customer_id ?? null;
  const returns = x.returns.filter((r) => named(customerOf(r)));
  const ids = [...new Set([...sales.map((s) => s.customer_id!), ...returns.map((r) => customerOf(r)!)])];
  const per = ids.map((id) => ({
    id,
    sales: sales.filter((s) => s.customer_id === id),
    t: totals(
      x,
      sales.filter((s) => s.customer_id === id),
      returns.filter((r) => customerOf(r) === id),
    ),
  }));
  const onAccount = (ss: SaleRow[]) =>
    sum(
      paymentsOf(x, ss).filter((p) => p.method_type === 'on_account'),
      (p) => p.amount,
    );
  const all = totals(x, sales, returns);
  const served = new Set(sales.map((s) => s.customer_id)).size;
  return expected(x, 'customers', {
    summary: figures(c, {
      customers_served: count(served),
      customer_sales: count(sales.length),
      customer_sales_share: pct(sales.length, x.kept.length),
      anonymous_sales: count(x.kept.length - sales.length),
      customer_net_sales: money(all.net),
      net_sales_per_customer: avg(all.net, served),
      on_account: money(onAccount(sales)),
      customer_refunds: money(all.refundTotal),
    }),
    rowKey: ['customer_id'],
    rows: per
      .sort((a, b) => b.t.total - a.t.total || a.id - b.id)
      .slice(0, 100)
      .map((p) =>
        row(String(p.id), c, {
          sales_count: count(p.t.sales),
          net_sales: money(p.t.net),
          total: money(p.t.total),
          average_sale: avg(p.t.total, p.t.sales),
          on_account: money(onAccount(p.sales)),
          returns: count(p.t.returns),
          refunds: money(p.t.refundTotal),
        }),
      ),
    ignoredRowFields: ['customer_name', 'currency'],
  });
}

export function paymentsReport(x: SalesScope): Expected {
  const c = x.store.currency_code;
  const taken = paymentsOf(x, x.kept);
  const voided = paymentsOf(x, x.voided);
  const refunds = refundsOf(x, x.returns);
  const methods = [...new Set([...taken, ...voided, ...refunds].map((p) => p.method_code))];
  const type = (code: string) => [...taken, ...voided, ...refunds].find((p) => p.method_code === code)!.method_type;
  const all = sum(taken, (p) => p.amount);
  const netOf = (t: string) =>
    sum(
      taken.filter((p) => p.method_type === t),
      (p) => p.amount,
    ) -
    sum(
      refunds.filter((r) => r.method_type === t),
      (r) => r.amount,
    );
  return expected(x, 'payments', {
    summary: figures(c, {
      payments: count(taken.length),
      taken: money(all),
      refunded: money(sum(refunds, (r) => r.amount)),
      net_taken: money(all - sum(refunds, (r) => r.amount)),
      change_given: money(sum(taken, (p) => p.change_amount)),
      voided: money(sum(voided, (p) => p.amount)),
      net_cash: money(netOf('cash')),
      net_card: money(netOf('card')),
      net_on_account: money(netOf('on_account')),
    }),
    rowKey: ['method_code'],
    rows: methods.map((m) => {
      const t = taken.filter((p) => p.method_code === m);
      const r = refunds.filter((p) => p.method_code === m);
      const v = voided.filter((p) => p.method_code === m);
      return row(m, c, {
        method_type: text(type(m)),
        payments: count(t.length),
        taken: money(sum(t, (p) => p.amount)),
        change_given: money(sum(t, (p) => p.change_amount)),
        refund_count: count(r.length),
        refunded: money(sum(r, (p) => p.amount)),
        net: money(sum(t, (p) => p.amount) - sum(r, (p) => p.amount)),
        share_percent: pct(
          sum(t, (p) => p.amount),
          all,
        ),
        voided_payments: count(v.length),
        voided_amount: money(sum(v, (p) => p.amount)),
      });
    }),
    ignoredRowFields: ['currency'],
  });
}

export function taxReport(x: SalesScope): Expected {
  const c = x.store.currency_code;
  const rateOf = (saleId: number, bp: number) => (x.exempt(x.saleOf.get(saleId)!) ? 'exempt' : String(bp / 100));
  const lines = groupBy(x.keptLines, (l) => rateOf(l.sale_id, l.tax_rate_bp));
  const back = groupBy(x.returnItems, (i) => {
    const l = x.lineOf.get(i.sale_item_id)!;
    return rateOf(l.sale_id, l.tax_rate_bp);
  });
  const exemptSales = x.kept.filter(x.exempt);
  const taxable = x.keptLines.filter((l) => !x.exempt(x.saleOf.get(l.sale_id)!));
  const rates = [...new Set([...lines.keys(), ...back.keys()])];
  return expected(x, 'tax', {
    summary: figures(c, {
      taxable_sales: money(sum(taxable, net)),
      tax_collected: money(sum(x.keptLines, (l) => l.tax)),
      tax_refunded: money(sum(x.returns, (r) => r.refund_tax)),
      net_tax: money(sum(x.keptLines, (l) => l.tax) - sum(x.returns, (r) => r.refund_tax)),
      exempt_sales: count(exemptSales.length),
      exempt_net: money(sum(exemptSales, (s) => sum(x.linesOf(s.id), net))),
    }),
    rowKey: ['store_id', 'rate_percent'],
    rows: rates.map((rate) => {
      const ls = lines.get(rate) ?? [];
      const rs = back.get(rate) ?? [];
      const exempt = rate === 'exempt';
      const tax = sum(ls, (l) => l.tax);
      return row(`${x.store.id}|${exempt ? null : rate}`, c, {
        rate: text(exempt ? 'exempt' : `${rate}%`),
        lines: count(ls.length),
        taxable_sales: money(exempt ? 0 : sum(ls, net)),
        exempt_net: money(exempt ? sum(ls, net) : 0),
        tax_collected: money(tax),
        effective_rate_percent: exempt ? { unit: 'percent', value: null } : pct(tax, sum(ls, net)),
        refunded_taxable: money(exempt ? 0 : sum(rs, refundNet)),
        refunded_exempt: money(exempt ? sum(rs, refundNet) : 0),
        tax_refunded: money(sum(rs, (i) => i.refund_tax)),
        net_tax: money(tax - sum(rs, (i) => i.refund_tax)),
      });
    }),
    ignoredRowFields: ['store_name', 'currency'],
  });
}

function cashierFields(x: SalesScope, user: number, kept: SaleRow[], voided: SaleRow[], returns: ReturnRow[]): Record<string, Fig> {
  const t = totals(
    x,
    kept.filter((s) => s.user_id === user),
    returns.filter((r) => r.processed_by === user),
    voided.filter((s) => s.user_id === user),
  );
  const lines = kept.filter((s) => s.user_id === user).flatMap((s) => x.linesOf(s.id));
  return {
    sales_count: count(t.sales),
    items_sold: qty(t.units),
    net_sales: money(t.net),
    total: money(t.total),
    average_sale: avg(t.total, t.sales),
    discounts: money(t.discounts),
    manual_discounts: money(sum(lines, (l) => l.manual_discount + l.cart_discount)),
    voids: count(t.voids),
    voided_total: money(t.voidedTotal),
    returns_processed: count(t.returns),
    refunds: money(t.refundTotal),
  };
}

export function cashierReport(x: SalesScope): Expected {
  const c = x.store.currency_code;
  const users = [...new Set([...x.kept, ...x.voided].map((s) => s.user_id).concat(x.returns.map((r) => r.processed_by!)))];
  return expected(x, 'cashier', {
    summary: figures(c, {
      cashiers: count(users.length),
      sales_count: count(x.kept.length),
      total: money(sum(x.kept, (s) => s.total_amount)),
      average_sale: avg(
        sum(x.kept, (s) => s.total_amount),
        x.kept.length,
      ),
      voids: count(x.voided.length),
    }),
    rowKey: ['cashier_id'],
    rows: users.map((u) => row(String(u), c, cashierFields(x, u, x.kept, x.voided, x.returns))),
    ignoredRowFields: ['cashier_name', 'currency'],
  });
}

export function oneCashierReport(x: SalesScope, user: number): Expected {
  const c = x.store.currency_code;
  const all = cashierFields(x, user, x.kept, x.voided, x.returns);
  const { voided_total: _v, manual_discounts: _m, ...summary } = all;
  const days = byDay(
    x,
    x.kept.filter((s) => s.user_id === user),
    x.returns.filter((r) => r.processed_by === user),
    x.voided.filter((s) => s.user_id === user),
  );
  const on =
    (day: string) =>
    <T extends { created_at: Date }>(s: T) =>
      x.day(s.created_at) === day;
  return expected(x, `cashier/${user}`, {
    summary: figures(c, summary),
    rowKey: ['date'],
    rows: [...days.keys()].map((d) =>
      row(d, c, {
        cashier_id: count(user),
        ...cashierFields(
          x,
          user,
          x.kept.filter(on(d)),
          x.voided.filter(on(d)),
          x.returns.filter((r) => x.day(r.processed_at!) === d),
        ),
      }),
    ),
    ignoredRowFields: ['cashier_name', 'currency'],
    zeroRowsOptional: true,
  });
}
