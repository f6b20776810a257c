/**
 * Independent recomputation of the invoice reports (contract 4.10: invoices, invoices/aging,
 * invoices/dso, invoices/credit-notes, invoices/funnel) from the raw tables (invoices, sales,
 * sale_payments, invoice_payments, credit_notes, sale_items, customers), for the invariant suite
 * of issue 23. Written from decisions.md "Reports", the README's report table and the reports'
 * own labels, never from the report code. The definitions used, where those texts leave a choice:
 * - An invoice counts on the business day it was issued, in its store's time zone; a credit note
 *   on the day it was issued. With warehouse_id, only invoices of sales whose every line left that
 *   warehouse (sale-level figures, README "Filters"), and the credit notes of returns whose every
 *   line was sold from it (a return is a document of its own, like a sale).
 * - The balance is recomputed, not read: amount - paid at the till - later payments - the
 *   on-account part of its credit notes; a void invoice owes nothing.
 * - Paid at the till: the sale's payments other than on account (net of change). The amount
 *   invoiced splits into paid at the till + sold on account (both of kept sales) + voided.
 * - Collected on account: the later payments received on the period's invoices. A credit note
 *   settles a balance but collects nothing.
 * - Paid in full: an on-account invoice whose balance is 0 and that its credit notes did not
 *   cancel whole (an invoice returned in full was not paid, whatever its balance).
 * - Ages are whole days between the issue day and today in the store's zone; buckets 0-30,
 *   31-60, 61-90, 91-120 and over 120. Past due: a balance after due_at.
 */
import {
  count,
  expectation,
  row,
  dayIn,
  dayNumber,
  Expected,
  ExpectedFigure,
  ExpectedRow,
  Fig,
  figures,
  groupBy,
  inPeriod,
  money,
  num,
  pct,
  Q,
  ReportFilters,
  scopeOf,
  Scope,
  sum,
  text,
  toDate,
} from './recompute-common';

interface Invoice {
  id: number;
  storeId: number;
  saleId: number;
  customerId: number | null;
  currency: string;
  day: string;
  age: number;
  amount: number;
  tillPaid: number;
  onAccount: number;
  paidLater: number;
  payments: number;
  credited: number;
  balance: number;
  void: boolean;
  overdue: boolean;
}
interface CreditNote {
  id: number;
  number: string;
  storeId: number;
  saleId: number;
  returnId: number;
  customerId: number | null;
  currency: string;
  day: string;
  amount: number;
}
interface Books {
  scope: Scope;
  invoices: Invoice[];
  creditNotes: CreditNote[];
  /** On-account amount of each kept sale of the period, with its store and currency. */
  creditSales: { storeId: number; currency: string; amount: number }[];
  customers: Map<number, string>;
}

async function books(q: Q, filters: ReportFilters, now: Date): Promise<Books> {
  const scope = await scopeOf(q, filters, now);
  const sales = new Map((await q('SELECT id, store_id, status, currency_code, created_at FROM sales')).map((s) => [num(s.id), s]));
  const lines = groupBy(await q('SELECT id, sale_id, warehouse_id FROM sale_items'), (l) => String(num(l.sale_id)));
  const inScope = (saleId: number): boolean => {
    const sale = sales.get(saleId);
    if (!sale || !scope.stores.has(num(sale.store_id))) return false;
    const wh = scope.filters.warehouse_id;
    return wh === undefined || (lines.get(String(saleId)) ?? []).every((l) => num(l.warehouse_id) === wh);
  };
  const tillPaid = new Map<number, number>();
  const onAccount = new Map<number, number>();
  for (const p of await q('SELECT sale_id, method_type, amount FROM sale_payments')) {
    const m = p.method_type === 'on_account' ? onAccount : tillPaid;
    m.set(num(p.sale_id), (m.get(num(p.sale_id)) ?? 0) + num(p.amount));
  }
  const later = groupBy(await q('SELECT invoice_id, amount FROM invoice_payments'), (p) => String(num(p.invoice_id)));
  const notes = await q(
    'SELECT id, number, store_id, sale_id, invoice_id, return_id, customer_id, currency_code, amount, on_account, issued_at FROM credit_notes',
  );
  const notesOf = groupBy(notes, (n) => String(num(n.invoice_id)));
  const tzOf = (storeId: number) => scope.allStores.get(storeId)?.tz ?? 'UTC';
  const invoices: Invoice[] = [];
  for (const i of await q('SELECT id, sale_id, store_id, customer_id, status, issued_at, due_at, amount FROM invoices')) {
    const saleId = num(i.sale_id);
    if (!inScope(saleId)) continue;
    const paid = later.get(String(num(i.id))) ?? [];
    const cns = notesOf.get(String(num(i.id))) ?? [];
    const isVoid = i.status === 'void' || sales.get(saleId)!.status === 'voided';
    const tz = tzOf(num(i.store_id));
    const amount = num(i.amount);
    const balance = isVoid ? 0 : amount - (tillPaid.get(saleId) ?? 0) - sum(paid, (p) => num(p.amount)) - sum(cns, (n) => num(n.on_account));
    const day = dayIn(toDate(i.issued_at), tz);
    invoices.push({
      id: num(i.id),
      storeId: num(i.store_id),
      saleId,
      customerId: i.customer_id === null ? null : num(i.customer_id),
      currency: sales.get(saleId)!.currency_code,
      day,
      age: dayNumber(dayIn(now, tz)) - dayNumber(day),
      amount,
      tillPaid: tillPaid.get(saleId) ?? 0,
      onAccount: onAccount.get(saleId) ?? 0,
      paidLater: sum(paid, (p) => num(p.amount)),
      payments: paid.length,
      credited: sum(cns, (n) => num(n.amount)),
      balance,
      void: isVoid,
      overdue: balance > 0 && toDate(i.due_at).getTime() < now.getTime(),
    });
  }
  const returnLines = groupBy(await q('SELECT return_id, sale_item_id FROM sale_return_items'), (r) => String(num(r.return_id)));
  const soldFrom = new Map([...lines.values()].flat().map((l) => [num(l.id), num(l.warehouse_id)]));
  const wh = filters.warehouse_id;
  const creditNotes = notes
    .filter((n) => scope.stores.has(num(n.store_id)))
    .filter((n) => wh === undefined || (returnLines.get(String(num(n.return_id))) ?? []).every((r) => soldFrom.get(num(r.sale_item_id)) === wh))
    .map((n) => ({
      id: num(n.id),
      number: String(n.number),
      storeId: num(n.store_id),
      saleId: num(n.sale_id),
      returnId: num(n.return_id),
      customerId: n.customer_id === null ? null : num(n.customer_id),
      currency: n.currency_code,
      day: dayIn(toDate(n.issued_at), tzOf(num(n.store_id))),
      amount: num(n.amount),
    }));
  const creditSales = [...sales.values()]
    .filter((s) => inScope(num(s.id)) && s.status !== 'voided' && inPeriod(dayIn(toDate(s.created_at), tzOf(num(s.store_id))), filters))
    .map((s) => ({ storeId: num(s.store_id), currency: s.currency_code, amount: onAccount.get(num(s.id)) ?? 0 }));
  const customers = new Map((await q('SELECT id, name FROM customers')).map((c) => [num(c.id), String(c.name)]));
  return { scope, invoices, creditNotes, creditSales, customers };
}

/** The currencies of the stores in scope, each with its slice of a list. */
function perCurrency<T extends { currency: string }>(scope: Scope, xs: T[]): [string, T[]][] {
  const codes = new Set([...[...scope.stores.values()].map((s) => s.currency), ...xs.map((x) => x.currency)]);
  return [...codes].sort().map((c) => [c, xs.filter((x) => x.currency === c)]);
}
export async function recomputeInvoices(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const b = await books(q, filters, now);
  const period = b.invoices.filter((i) => inPeriod(i.day, filters));
  const notes = b.creditNotes.filter((n) => inPeriod(n.day, filters));
  const summary: ExpectedFigure[] = [];
  const rows: ExpectedRow[] = [];
  const charts: Expected['charts'] = [];
  const figs = (xs: Invoice[], cns: CreditNote[]) => {
    const kept = xs.filter((i) => !i.void);
    const onAccount = kept.filter((i) => i.onAccount > 0);
    return {
      invoices_issued: count(xs.length),
      amount_issued: money(sum(xs, (i) => i.amount)),
      paid_at_till: money(sum(kept, (i) => i.tillPaid)),
      on_account_invoices: count(onAccount.length),
      on_account_amount: money(sum(kept, (i) => i.onAccount)),
      void_invoices: count(xs.length - kept.length),
      credit_notes: count(cns.length),
    };
  };
  for (const [currency, xs] of perCurrency(b.scope, period)) {
    const cns = notes.filter((n) => n.currency === currency);
    const open = xs.filter((i) => i.balance > 0);
    const overdue = open.filter((i) => i.overdue);
    const voids = xs.filter((i) => i.void);
    summary.push(
      ...figures(currency, {
        ...figs(xs, cns),
        open_invoices: count(open.length),
        open_balance: money(sum(open, (i) => i.balance)),
        overdue_invoices: count(overdue.length),
        overdue_balance: money(sum(overdue, (i) => i.balance)),
        collected_on_account: money(sum(xs, (i) => (i.void || i.onAccount === 0 ? 0 : i.paidLater))),
        void_amount: money(sum(voids, (i) => i.amount)),
        credit_note_total: money(sum(cns, (n) => n.amount)),
      }),
    );
    const days = new Set([...xs.map((i) => i.day), ...cns.map((n) => n.day)]);
    for (const day of days) {
      const f = figs(
        xs.filter((i) => i.day === day),
        cns.filter((n) => n.day === day),
      );
      rows.push(row(`${day}|${currency}`, currency, f));
    }
    charts.push({ title: 'Amount invoiced per day', series: currency, unit: 'money', currency, total: sum(xs, (i) => i.amount) });
  }
  return expectation('invoices', b.scope, { summary, rows, rowKey: ['date', 'currency'], zeroRowsOptional: true, charts });
}

const BUCKETS: [string, string, number, number][] = [
  ['bucket_0-30', 'days_0_30', 0, 30],
  ['bucket_31-60', 'days_31_60', 31, 60],
  ['bucket_61-90', 'days_61_90', 61, 90],
  ['bucket_91-120', 'days_91_120', 91, 120],
  ['bucket_120+', 'days_120_plus', 121, Infinity],
];
/** Invoices still owing now among those issued up to date_to. */
const receivable = (b: Books) => b.invoices.filter((i) => i.day <= b.scope.filters.date_to && !i.void && i.balance > 0);

export async function recomputeAging(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const b = await books(q, filters, now);
  const summary: ExpectedFigure[] = [];
  const rows: ExpectedRow[] = [];
  const charts: Expected['charts'] = [];
  const buckets = (xs: Invoice[], name: (k: [string, string]) => string) =>
    Object.fromEntries(BUCKETS.map(([k, r, lo, hi]) => [name([k, r]), money(sum(xs, (i) => (i.age >= lo && i.age <= hi ? i.balance : 0)))]));
  for (const [currency, xs] of perCurrency(b.scope, receivable(b))) {
    const past = (ys: Invoice[]) => money(sum(ys, (i) => (i.overdue ? i.balance : 0)));
    summary.push(
      ...figures(currency, {
        receivables: money(sum(xs, (i) => i.balance)),
        open_invoices: count(xs.length),
        customers: count(new Set(xs.map((i) => i.customerId)).size),
        past_due: past(xs),
        ...buckets(xs, ([k]) => k),
      }),
    );
    for (const [customer, ys] of groupBy(xs, (i) => String(i.customerId))) {
      const id = customer === 'null' ? null : Number(customer);
      rows.push(
        row(`${customer}|${currency}`, currency, {
          customer_name: text(id === null ? null : (b.customers.get(id) ?? null)),
          open_invoices: count(ys.length),
          ...buckets(ys, ([, r]) => r),
          receivables: money(sum(ys, (i) => i.balance)),
          past_due: past(ys),
        }),
      );
    }
    charts.push({ title: 'Open receivables by age (days since issue)', series: currency, unit: 'money', currency, total: sum(xs, (i) => i.balance) });
  }
  return expectation('invoices/aging', b.scope, { summary, rows, rowKey: ['customer_id', 'currency'], charts });
}

export async function recomputeDso(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const b = await books(q, filters, now);
  const days = b.scope.days;
  const dso = (receivables: number, credit: number): Fig => ({ unit: 'days', value: credit === 0 ? null : (receivables / credit) * days });
  const summary: ExpectedFigure[] = [];
  const rows: ExpectedRow[] = [];
  const open = receivable(b);
  for (const [currency, xs] of perCurrency(b.scope, open)) {
    const credit = sum(
      b.creditSales.filter((s) => s.currency === currency),
      (s) => s.amount,
    );
    const receivables = sum(xs, (i) => i.balance);
    summary.push(
      ...figures(currency, {
        dso_days: dso(receivables, credit),
        receivables: money(receivables),
        credit_sales: money(credit),
        days: { unit: 'days', value: days },
      }),
    );
  }
  for (const store of b.scope.stores.values()) {
    const receivables = sum(
      open.filter((i) => i.storeId === store.id),
      (i) => i.balance,
    );
    const credit = sum(
      b.creditSales.filter((s) => s.storeId === store.id),
      (s) => s.amount,
    );
    rows.push(
      row(String(store.id), store.currency, {
        store_name: text(store.name),
        currency: text(store.currency),
        receivables: money(receivables),
        credit_sales: money(credit),
        days: { unit: 'days', value: days },
        dso_days: dso(receivables, credit),
      }),
    );
  }
  return expectation('invoices/dso', b.scope, { summary, rows, rowKey: ['store_id'], zeroRowsOptional: true });
}

export async function recomputeCreditNotes(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const b = await books(q, filters, now);
  const notes = b.creditNotes.filter((n) => inPeriod(n.day, filters));
  const summary: ExpectedFigure[] = [];
  const charts: Expected['charts'] = [];
  for (const [currency, xs] of perCurrency(b.scope, notes)) {
    summary.push(...figures(currency, { credit_notes: count(xs.length), credit_note_total: money(sum(xs, (n) => n.amount)) }));
    charts.push({ title: 'Credit notes per day', series: currency, unit: 'money', currency, total: sum(xs, (n) => n.amount) });
  }
  const rows = notes.map((n) =>
    row(String(n.id), n.currency, {
      number: text(n.number),
      date: text(n.day),
      store_id: text(n.storeId),
      sale_id: text(n.saleId),
      return_id: text(n.returnId),
      customer_id: text(n.customerId),
      customer_name: text(n.customerId === null ? null : (b.customers.get(n.customerId) ?? null)),
      currency: text(n.currency),
      credit_note_amount: money(n.amount),
    }),
  );
  return expectation('invoices/credit-notes', b.scope, { summary, rows, rowKey: ['id'], ignoredRowFields: ['created_at'], charts });
}

export async function recomputeFunnel(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const b = await books(q, filters, now);
  const issued = b.invoices.filter((i) => inPeriod(i.day, filters) && i.onAccount > 0);
  const summary: ExpectedFigure[] = [];
  const rows: ExpectedRow[] = [];
  const charts: Expected['charts'] = [];
  for (const [currency, xs] of perCurrency(b.scope, issued)) {
    const kept = xs.filter((i) => !i.void);
    const open = kept.filter((i) => i.balance > 0);
    const stages: [string, Invoice[], 'on-account amount' | 'open balance' | null][] = [
      ['issued', xs, 'on-account amount'],
      ['voided', xs.filter((i) => i.void), 'on-account amount'],
      ['any_payment', kept.filter((i) => i.payments > 0), null],
      ['paid_in_full', kept.filter((i) => i.balance === 0 && i.credited < i.amount), null],
      ['unpaid', open.filter((i) => i.payments === 0), 'open balance'],
      ['partially_paid', open.filter((i) => i.payments > 0), 'open balance'],
      ['overdue', open.filter((i) => i.overdue), 'open balance'],
    ];
    for (const [stage, ys, amountIs] of stages) {
      const amount = amountIs === null ? null : sum(ys, (i) => (amountIs === 'open balance' ? i.balance : i.onAccount));
      rows.push(
        row(`${stage}|${currency}`, currency, {
          invoices: count(ys.length),
          amount: money(amount),
          amount_is: text(amountIs),
          share_of_issued: pct(ys.length, xs.length),
        }),
      );
    }
    const paid = stages[3][1].length;
    summary.push(
      ...figures(currency, {
        issued: count(xs.length),
        paid_in_full: count(paid),
        collection_rate: pct(paid, kept.length),
        open_balance: money(sum(open, (i) => i.balance)),
        overdue_share: pct(stages[6][1].length, kept.length),
      }),
    );
    charts.push({ title: 'On-account invoice funnel', series: currency, unit: 'count', currency: null, total: xs.length + stages[2][1].length + paid });
  }
  return expectation('invoices/funnel', b.scope, { summary, rows, rowKey: ['stage', 'currency'], ignoredRowFields: ['label'], charts });
}

/** Each report of the family: its recomputation and the comparison of a payload with it. */
export const INVOICE_REPORTS = {
  invoices: recomputeInvoices,
  'invoices/aging': recomputeAging,
  'invoices/dso': recomputeDso,
  'invoices/credit-notes': recomputeCreditNotes,
  'invoices/funnel': recomputeFunnel,
} as const;
export { compareReport } from './recompute-common';
