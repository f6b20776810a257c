import { groupBy, LineRow, SaleRow, sum } from './books';
import { count, Expected, Fig, figures, money, pct, qty, row, text } from './recompute-common';
import { expected, lineCost, lineDiscounts, net, refundNet, returnedCost, SalesScope } from './recompute-sales';

/** The sales reports by item, return, void and hour (see recompute-sales.ts for the definitions). */

const onAccount = (x: SalesScope, s: SaleRow) =>
  sum(
    x.books.payments.filter((p) => p.sale_id === s.id && p.method_type === 'on_account'),
    (p) => p.amount,
  );

export function voidsReport(x: SalesScope): Expected {
  const c = x.store.currency_code;
  const byCashier = groupBy(x.voided, (s) => s.user_id);
  return expected(x, 'voids', {
    summary: figures(c, {
      voids: count(x.voided.length),
      voided_total: money(sum(x.voided, (s) => s.total_amount)),
      voided_net: money(sum(x.voided, (s) => sum(x.linesOf(s.id), net))),
      voided_on_account: money(sum(x.voided, (s) => onAccount(x, s))),
      void_rate: pct(x.voided.length, x.voided.length + x.kept.length),
    }),
    rowKey: ['cashier_id'],
    rows: [...byCashier].map(([user, vs]) => {
      const kept = x.kept.filter((s) => s.user_id === user).length;
      return row(String(user), c, {
        voids: count(vs.length),
        voided_total: money(sum(vs, (s) => s.total_amount)),
        sales_kept: count(kept),
        void_rate: pct(vs.length, vs.length + kept),
      });
    }),
    ignoredRowFields: ['cashier_name', 'currency'],
  });
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** Weekday (0 Monday) and hour of an instant in the store's zone. */
function slot(at: Date, tz: string): [number, number] {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short', hour: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const wd = WEEKDAYS.indexOf(parts.find((p) => p.type === 'weekday')!.value);
  return [wd, Number(parts.find((p) => p.type === 'hour')!.value)];
}

export function heatmapReport(x: SalesScope, actual?: { data?: { summary?: { key: string; value: number }[] } }): Expected {
  const c = x.store.currency_code;
  const cells = groupBy(x.kept, (s) => slot(s.created_at, x.store.timezone).join(':'));
  const rows = [...Array(7).keys()].flatMap((wd) =>
    [...Array(24).keys()].map((h) => {
      const ss = cells.get(`${wd}:${h}`) ?? [];
      return row(`${wd}|${h}`, c, {
        weekday: text(WEEKDAYS[wd]),
        sales_count: count(ss.length),
        net_sales: money(sum(ss, (s) => sum(x.linesOf(s.id), net))),
        total: money(sum(ss, (s) => s.total_amount)),
      });
    }),
  );
  const best = Math.max(0, ...[...cells.values()].map((ss) => ss.length));
  // The busiest cell: any cell with the most sales (ties may be named either way).
  const named = (k: string) => actual?.data?.summary?.find((f) => f.key === k)?.value;
  const [aw, ah] = [named('busiest_weekday'), named('busiest_hour')];
  const tie = aw !== undefined && ah !== undefined && (cells.get(`${aw}:${ah}`)?.length ?? 0) === best && best > 0;
  const [bw, bh] = tie
    ? [aw, ah]
    : ([...cells]
        .find(([, ss]) => ss.length === best)?.[0]
        .split(':')
        .map(Number) ?? [null, null]);
  return expected(x, 'heatmap', {
    summary: figures(c, {
      sales_count: count(x.kept.length),
      busiest_weekday: { unit: 'count', value: best ? (bw as number) : null },
      busiest_hour: { unit: 'count', value: best ? (bh as number) : null },
      busiest_sales: count(best),
    }),
    rowKey: ['weekday_index', 'hour'],
    rows,
    ignoredRowFields: ['currency'],
  });
}

export function returnsReport(x: SalesScope): Expected {
  const c = x.store.currency_code;
  const reason = (id: number | null) => (id === null ? null : (x.books.reasons.get(id) ?? null));
  const ret = new Map(x.returns.map((r) => [r.id, r]));
  const groups = groupBy(x.returnItems, (i) => `${reason(ret.get(i.return_id)!.reason_id)}|${i.item_condition}`);
  const items = x.returnItems;
  return expected(x, 'returns', {
    summary: figures(c, {
      returns: count(x.returns.length),
      units_returned: qty(sum(items, (i) => i.base_quantity)),
      units_restocked: qty(
        sum(
          items.filter((i) => i.restock),
          (i) => i.base_quantity,
        ),
      ),
      refund_total: money(sum(x.returns, (r) => r.refund_total)),
      refund_net: money(sum(x.returns, refundNet)),
      refund_tax: money(sum(x.returns, (r) => r.refund_tax)),
      cost_returned: money(sum(items, (i) => returnedCost(x, i))),
      refund_rate: pct(
        sum(x.returns, (r) => r.refund_total),
        sum(x.kept, (s) => s.total_amount),
      ),
    }),
    rowKey: ['reason', 'condition'],
    rows: [...groups].map(([id, is]) =>
      row(id, c, {
        returns: count(new Set(is.map((i) => i.return_id)).size),
        lines_returned: count(is.length),
        units_returned: qty(sum(is, (i) => i.base_quantity)),
        units_restocked: qty(
          sum(
            is.filter((i) => i.restock),
            (i) => i.base_quantity,
          ),
        ),
        refund_net: money(sum(is, refundNet)),
        refund_tax: money(sum(is, (i) => i.refund_tax)),
        refund_total: money(sum(is, (i) => i.refund_total)),
        cost: money(sum(is, (i) => returnedCost(x, i))),
      }),
    ),
    ignoredRowFields: ['currency'],
  });
}

/** Per item: units and money sold in the period's kept sales, and returned in its processed returns. */
function perItem(x: SalesScope) {
  const sold = groupBy(x.keptLines, (l) => l.item_id);
  const back = groupBy(x.returnItems, (i) => i.item_id);
  return [...new Set([...sold.keys(), ...back.keys()])].map((id) => {
    const ls = sold.get(id) ?? [];
    const rs = back.get(id) ?? [];
    const netSales = sum(ls, net);
    const refunds = sum(rs, refundNet);
    const cogs = sum(ls, lineCost) - sum(rs, (i) => returnedCost(x, i));
    return {
      id,
      ls,
      rs,
      units: sum(ls, (l) => l.base_quantity),
      unitsBack: sum(rs, (i) => i.base_quantity),
      netSales,
      refunds,
      refundTotal: sum(rs, (i) => i.refund_total),
      revenue: netSales - refunds,
      cogs,
      profit: netSales - refunds - cogs,
      total: sum(ls, (l) => l.total),
    };
  });
}

export function returnRateReport(x: SalesScope): Expected {
  const c = x.store.currency_code;
  const items = perItem(x).filter((i) => i.rs.length);
  const units = sum(x.keptLines, (l) => l.base_quantity);
  const back = sum(x.returnItems, (i) => i.base_quantity);
  const refunds = sum(x.returns, (r) => r.refund_total);
  return expected(x, 'return-rate', {
    summary: figures(c, {
      unit_return_rate: pct(back, units),
      value_return_rate: pct(
        refunds,
        sum(x.kept, (s) => s.total_amount),
      ),
      returns_per_100_sales: { unit: 'ratio', value: x.kept.length ? (x.returns.length * 100) / x.kept.length : null },
      units_returned: qty(back),
      refund_total: money(refunds),
    }),
    rowKey: ['item_id'],
    rows: items.map((i) =>
      row(String(i.id), c, {
        units_sold: qty(i.units),
        units_returned: qty(i.unitsBack),
        unit_return_rate: pct(i.unitsBack, i.units),
        refunds: money(i.refundTotal),
        value_return_rate: pct(i.refundTotal, i.total),
      }),
    ),
    ignoredRowFields: ['sku', 'name', 'currency'],
  });
}

const SOURCES = ['base', 'price_book', 'pricing_rule', 'bundle', 'manual', 'offline'];

export function priceSourceReport(x: SalesScope): Expected {
  const c = x.store.currency_code;
  const by = groupBy(x.keptLines, (l) => l.price_source);
  const all = x.keptLines.length;
  const allNet = sum(x.keptLines, net);
  return expected(x, 'price-source', {
    summary: figures(c, {
      lines: count(all),
      net_sales: money(allNet),
      ...Object.fromEntries(SOURCES.map((s) => [`${s}_share`, pct(by.get(s)?.length ?? 0, all)])),
    }),
    rowKey: ['price_source'],
    rows: [...by].map(([s, ls]: [string, LineRow[]]) =>
      row(s, c, {
        lines: count(ls.length),
        units: qty(sum(ls, (l) => l.base_quantity)),
        gross_sales: money(sum(ls, (l) => l.gross)),
        discounts: money(sum(ls, lineDiscounts)),
        net_sales: money(sum(ls, net)),
        share_of_lines: pct(ls.length, all),
        share_of_net_sales: pct(sum(ls, net), allNet),
      }),
    ),
    ignoredRowFields: ['currency'],
  });
}

export function productsReport(x: SalesScope): Expected {
  const c = x.store.currency_code;
  const items = perItem(x);
  return expected(x, 'products', {
    summary: figures(c, {
      distinct_items_sold: count(items.filter((i) => i.ls.length).length),
      units_sold: qty(sum(items, (i) => i.units)),
      units_returned: qty(sum(items, (i) => i.unitsBack)),
      revenue: money(sum(items, (i) => i.revenue)),
      gross_profit: money(sum(items, (i) => i.profit)),
    }),
    rowKey: ['item_id'],
    rows: items.map((i) =>
      row(String(i.id), c, {
        units_sold: qty(i.units),
        units_returned: qty(i.unitsBack),
        net_units: qty(i.units - i.unitsBack),
        lines: count(i.ls.length),
        gross_sales: money(sum(i.ls, (l) => l.gross)),
        discounts: money(sum(i.ls, lineDiscounts)),
        net_sales: money(i.netSales),
        refund_net: money(i.refunds),
        revenue: money(i.revenue),
        tax: money(sum(i.ls, (l) => l.tax)),
        cogs: money(i.cogs),
        gross_profit: money(i.profit),
        margin_percent: pct(i.profit, i.revenue),
      }),
    ),
    ignoredRowFields: ['sku', 'name', 'category', 'currency'],
  });
}

/** ABC by cumulative revenue share: A while the cumulative share is <= 80%, B <= 95%, C the rest and items without revenue. */
export function abcReport(x: SalesScope, actual?: { data?: { rows?: { item_id: number; rank: number }[] } }): Expected {
  const c = x.store.currency_code;
  // Items of equal revenue may come in any order: the report's own order among them is taken.
  const shown = new Map((actual?.data?.rows ?? []).map((r) => [Number(r.item_id), Number(r.rank)]));
  const items = perItem(x).sort((a, b) => b.revenue - a.revenue || (shown.get(a.id) ?? 0) - (shown.get(b.id) ?? 0) || a.id - b.id);
  const total = sum(
    items.filter((i) => i.revenue > 0),
    (i) => i.revenue,
  );
  let cumulative = 0;
  const ranked = items.map((i, n) => {
    cumulative += Math.max(0, i.revenue);
    const share = total > 0 ? (cumulative * 100) / total : 0;
    const cls = i.revenue <= 0 || total <= 0 ? 'C' : share <= 80 + 1e-9 ? 'A' : share <= 95 + 1e-9 ? 'B' : 'C';
    return { ...i, rank: n + 1, cumulative: share, cls };
  });
  const classFigs = (k: string): Record<string, Fig> => {
    const xs = ranked.filter((i) => i.cls === k.toUpperCase());
    const revenue = sum(xs, (i) => Math.max(0, i.revenue));
    return { [`class_${k}_items`]: count(xs.length), [`class_${k}_revenue`]: money(revenue), [`class_${k}_share`]: pct(revenue, total) };
  };
  return expected(x, 'products/abc', {
    summary: figures(c, { ...classFigs('a'), ...classFigs('b'), ...classFigs('c') }),
    rowKey: ['item_id'],
    rows: ranked.map((i) =>
      row(String(i.id), c, {
        rank: count(i.rank),
        revenue: money(i.revenue),
        ...(total > 0 ? { share_percent: pct(Math.max(0, i.revenue), total), cumulative_percent: { unit: 'percent', value: i.cumulative } } : {}),
        class: text(i.cls),
        units_sold: qty(i.units),
      }),
    ),
    // Shares of no revenue at all (everything sold came back) are a matter of taste: not compared.
    ignoredRowFields: ['sku', 'name', 'currency', ...(total > 0 ? [] : ['share_percent', 'cumulative_percent'])],
  });
}
