import { Books, groupBy, StoreRow, sum } from './books';
import { Findings } from './known-defects';
import { call, minor, World } from './harness';
import { judgeRead } from './executor';
import { expectedCash } from './invariants-other';

/**
 * The same books as the HTTP views show them: GET /sales/{id}, its receipt (JSON) and every
 * session's summary state the raw records in the currency's decimals, and obey the identities.
 */
export async function checkViews(w: World, b: Books, f: Findings, exemptCustomerId: number): Promise<void> {
  const stores = new Map(b.stores.map((s) => [s.id, s]));
  const lines = groupBy(b.lines, (l) => l.sale_id);
  const payments = groupBy(b.payments, (p) => p.sale_id);
  const invoices = new Map(b.invoices.map((i) => [i.sale_id, i]));
  for (const s of b.sales) {
    const store = stores.get(s.store_id)!;
    const m = (v: number) => minor(v, store.decimals);
    const mode = store.prices_include_tax ? 'inclusive-identity' : undefined;
    const exemptMode = mode && (s.tax_exempt || s.customer_id === exemptCustomerId) ? mode : undefined;
    const at = `GET /sales/${s.id}`;
    const res = judgeRead(w, f, at, await call(w, 'get', `/sales/${s.id}`, w.tokens.manager));
    if (res.status !== 200) {
      f.equal(res.status, 200, at);
      continue;
    }
    const v = res.body.data;
    f.equal(
      [v.subtotal, v.discount_total, v.tax_total, v.total_amount, v.paid_amount, v.change_amount, v.balance_due].map(m),
      [s.subtotal, s.discount_total, s.tax_total, s.total_amount, s.paid_amount, s.change_amount, s.balance_due],
      `${at}: money as recorded`,
    );
    f.equal(m(v.subtotal) - m(v.discount_total) + m(v.tax_total), m(v.total_amount), `${at}: subtotal - discount_total + tax_total = total_amount`, mode);
    const ls = lines.get(s.id) ?? [];
    f.equal(
      v.items.map((l: Record<string, number & { total: number }>) => [m(l.gross), m(l.discounts.total), m(l.net), m(l.tax), m(l.total)]),
      ls.map((l) => [l.gross, l.rule_discount + l.bundle_discount + l.manual_discount + l.cart_discount, l.net, l.tax, l.total]),
      `${at}: lines as recorded`,
    );
    f.equal(
      v.payments.map((p: Record<string, number | null>) => [
        m(p.amount as number),
        p.tendered === null ? null : m(p.tendered as number),
        m(p.change as number),
      ]),
      (payments.get(s.id) ?? []).map((p) => [p.amount, p.tendered, p.change_amount]),
      `${at}: payments as recorded`,
    );
    const inv = invoices.get(s.id);
    if (inv)
      f.equal(
        [v.invoice.amount, v.invoice.paid, v.invoice.credited, v.invoice.balance].map(m),
        [inv.amount, inv.paid, inv.credited, inv.balance],
        `${at}: invoice`,
      );

    const receipt = judgeRead(w, f, `${at}/receipt`, await call(w, 'get', `/sales/${s.id}/receipt`, w.tokens.manager));
    if (receipt.status !== 200) continue;
    const r = receipt.body.data;
    const rat = `${at}/receipt`;
    f.equal([m(r.total), m(r.tax_total), m(r.change), m(r.balance_due)], [s.total_amount, s.tax_total, s.change_amount, s.balance_due], `${rat}: totals`);
    f.equal(
      sum(r.taxes, (t: { tax: number }) => m(t.tax)),
      s.tax_total,
      `${rat}: taxes per rate add up to tax_total`,
    );
    f.equal(
      sum(r.lines, (l: { total: number }) => m(l.total)),
      s.total_amount,
      `${rat}: lines add up to the total`,
      exemptMode,
    );
    f.equal(m(r.subtotal) - m(r.discount_total) + m(r.tax_total), m(r.total), `${rat}: subtotal - discounts + tax = total`, mode);
    f.equal(
      sum(r.payments, (p: { amount: number }) => m(p.amount)),
      s.total_amount,
      `${rat}: payments add up to the total`,
    );
    for (const p of r.payments as { method: string; amount: number; tendered: number | null; change: number }[])
      if (p.method === 'cash')
        f.equal(p.tendered === null ? null : m(p.tendered), m(p.amount) + m(p.change), `${rat}: cash tendered = amount + change`, 'tendered-change');
  }
  await checkSessionViews(w, b, f, stores);
}

async function checkSessionViews(w: World, b: Books, f: Findings, stores: Map<number, StoreRow>): Promise<void> {
  const owner = new Map(Object.entries(w.suite.users).map(([actor, id]) => [id, actor as 'cashier' | 'manager']));
  for (const s of b.sessions) {
    const store = stores.get(s.store_id)!;
    const actor = owner.get(s.user_id);
    if (!actor) continue;
    const at = `GET /sessions/${s.id}/summary (${s.status}, ${store.currency_code})`;
    const res = judgeRead(w, f, at, await call(w, 'get', `/sessions/${s.id}/summary`, w.tokens[actor]));
    if (res.status !== 200) {
      f.equal(res.status, 200, at);
      continue;
    }
    const v = res.body.data;
    const m = (x: number) => minor(x, store.decimals);
    // Session money in the currency's decimals: JPY reads 2 decimals today.
    const scale = store.decimals === 2 ? undefined : 'session-scale';
    f.equal(m(v.opening_balance), s.opening_balance, `${at}: opening balance`, scale);
    const expected = s.status === 'closed' ? s.expected_cash : expectedCash(b, s);
    // A closed drawer's expected cash is the one of its close, whatever happened to its sales since.
    f.equal(m(v.expected_cash), expected, `${at}: expected cash (D3)`, s.status === 'closed' ? 'closed-summary-recomputed' : scale);
    if (s.status === 'closed') f.equal([m(v.closing_balance), m(v.discrepancy)], [s.closing_balance, s.discrepancy], `${at}: counted and discrepancy`, scale);
  }
}
