import { Injectable } from '@nestjs/common';
import { Principal } from '@pos/identity';
import { ReceivableGroup, ReceivablesReader } from '@pos/sales';
import { formatDay, ZoneCalendar } from '../domain/calendar';
import { AGING_BUCKETS, agingCutoffs, daysSalesOutstanding, percent } from '../domain/report-math';
import { figure, row } from '../domain/report-figures';
import { Chart, ReportResult, ReportRow, SummaryFigure } from '../domain/report-payload';
import { SALES } from '../domain/rollup-tables';
import { chart, dailyPoints, groupRows, Money, n, ReportKit, reportResult, Row, total } from './report-kit';
import { ReportFilters, ReportScope, ReportScopeResolver } from './report-scope';
import { InvoiceSettlement, InvoiceSettlementReader } from './invoice-settlement.reader';

const IM = [
  'sales_count',
  'total',
  'on_account',
  'credit_count',
  'void_count',
  'void_total',
  'void_on_account',
  'void_credit_count',
  'credit_note_count',
  'credit_note_total',
];

/**
 * Invoice reports. Every completed sale has an invoice; the invoices that matter here are the
 * on-account ones (a balance left at the till). Issue-side figures come from the sales rollups
 * (credit sales, voids); the current state of the open invoices (balances, age, past due) from
 * the sales context's published ReceivablesReader (one grouped query over the open invoices).
 * Aging and receivables describe now; date_to limits them to invoices issued up to that day.
 */
@Injectable()
export class InvoiceReportsService {
  constructor(
    private readonly scopes: ReportScopeResolver,
    private readonly kit: ReportKit,
    private readonly receivables: ReceivablesReader,
    private readonly settlements: InvoiceSettlementReader,
  ) {}

  private async open(p: Principal, f: ReportFilters): Promise<{ scope: ReportScope; money: Money }> {
    const scope = await this.scopes.resolve(p, f);
    return { scope, money: await this.kit.money(scope.currencies) };
  }

  /** Each store's business days of the period as instants. */
  private windows(scope: ReportScope): { storeId: number; from: Date; to: Date }[] {
    return scope.stores.map((s) => {
      const cal = ZoneCalendar.of(s.timeZone);
      return { storeId: s.id, from: cal.startOf(scope.period.from), to: cal.startOf(scope.period.to + 1) };
    });
  }

  /** Open invoices of the scope's stores issued in the period (or, `upToEnd`, at any time up to its end). */
  private openInvoices(scope: ReportScope, upToEnd: boolean, cutoffs: Date[] = [], byCustomer = false): Promise<ReceivableGroup[]> {
    return this.receivables.open({
      windows: this.windows(scope).map((w) => (upToEnd ? { storeId: w.storeId, to: w.to } : w)),
      warehouseId: scope.warehouseId ?? undefined,
      now: scope.now,
      ageCutoffs: cutoffs,
      byCustomer,
    });
  }

  /** Per currency: what became of the on-account invoices issued in the period (payments received later, credited whole). */
  private async settled(scope: ReportScope): Promise<(currency: string) => Omit<InvoiceSettlement, 'storeId'>> {
    const list = await this.settlements.settled({ windows: this.windows(scope), warehouseId: scope.warehouseId ?? undefined });
    return (c) => {
      const mine = list.filter((s) => this.currencyOf(scope, s.storeId) === c);
      const add = (k: 'invoicesPaidLater' | 'collected' | 'creditedWhole') => mine.reduce((a, s) => a + s[k], 0);
      return { invoicesPaidLater: add('invoicesPaidLater'), collected: add('collected'), creditedWhole: add('creditedWhole') };
    };
  }

  private currencyOf(scope: ReportScope, storeId: number): string {
    return scope.stores.find((s) => s.id === storeId)?.currencyCode ?? '';
  }

  async invoices(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const [daily, open, settled] = await Promise.all([
      this.kit.sum(scope, { table: SALES, daily: true, groupBy: ['day', 'currency_code'], measures: IM }),
      this.openInvoices(scope, false),
      this.settled(scope),
    ]);
    const byCur = groupRows(daily, 'currency_code');
    const summary: SummaryFigure[] = [];
    const statusSeries = [];
    for (const c of scope.currencies) {
      const t = total(byCur.get(c) ?? [], IM);
      const mine = open.filter((g) => this.currencyOf(scope, g.storeId) === c);
      const sumOf = (list: ReceivableGroup[], k: 'count' | 'balance') => list.reduce((a, g) => a + g[k], 0);
      const overdue = mine.filter((g) => g.overdue);
      const issued = n(t, 'sales_count') + n(t, 'void_count');
      const openCount = sumOf(mine, 'count');
      summary.push(
        figure('invoices_issued', issued, c),
        figure('amount_issued', money.v(n(t, 'total') + n(t, 'void_total'), c), c),
        figure('paid_at_till', money.v(n(t, 'total') - n(t, 'on_account'), c), c),
        figure('on_account_invoices', n(t, 'credit_count'), c),
        figure('on_account_amount', money.v(n(t, 'on_account'), c), c),
        figure('open_invoices', openCount, c),
        figure('open_balance', money.v(sumOf(mine, 'balance'), c), c),
        figure('overdue_invoices', sumOf(overdue, 'count'), c),
        figure('overdue_balance', money.v(sumOf(overdue, 'balance'), c), c),
        figure('collected_on_account', money.v(settled(c).collected, c), c),
        figure('void_invoices', n(t, 'void_count'), c),
        figure('void_amount', money.v(n(t, 'void_total'), c), c),
        figure('credit_notes', n(t, 'credit_note_count'), c),
        figure('credit_note_total', money.v(n(t, 'credit_note_total'), c), c),
      );
      statusSeries.push({
        name: c,
        currency: c,
        data: [
          { x: 'paid', y: issued - n(t, 'void_count') - openCount },
          { x: 'open (not yet due)', y: openCount - sumOf(overdue, 'count') },
          { x: 'overdue', y: sumOf(overdue, 'count') },
          { x: 'void', y: n(t, 'void_count') },
        ],
      });
    }
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day'))
      .map((r) => {
        const c = String(r.currency_code);
        return row({
          date: formatDay(n(r, 'day')),
          currency: c,
          invoices_issued: n(r, 'sales_count') + n(r, 'void_count'),
          amount_issued: money.v(n(r, 'total') + n(r, 'void_total'), c),
          paid_at_till: money.v(n(r, 'total') - n(r, 'on_account'), c),
          on_account_invoices: n(r, 'credit_count'),
          on_account_amount: money.v(n(r, 'on_account'), c),
          void_invoices: n(r, 'void_count'),
          credit_notes: n(r, 'credit_note_count'),
        });
      });
    return reportResult(scope, summary, rows, [
      this.daily(scope, 'Amount invoiced per day', daily, (r, c) => money.v(n(r, 'total') + n(r, 'void_total'), c)),
      chart('pie', 'Invoices issued in the period by status now', statusSeries),
    ]);
  }

  async aging(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const groups = await this.openInvoices(scope, true, agingCutoffs(scope.now), true);
    const perCustomer = new Map<string, { customerId: number | null; currency: string; buckets: number[]; count: number; overdue: number }>();
    for (const g of groups) {
      const c = this.currencyOf(scope, g.storeId);
      const key = `${c}:${g.customerId ?? 0}`;
      const entry = perCustomer.get(key) ?? { customerId: g.customerId, currency: c, buckets: AGING_BUCKETS.map(() => 0), count: 0, overdue: 0 };
      entry.buckets[g.bucket] += g.balance;
      entry.count += g.count;
      if (g.overdue) entry.overdue += g.balance;
      perCustomer.set(key, entry);
    }
    const names = await this.kit.customers([...perCustomer.values()].map((e) => e.customerId).filter((id): id is number => id !== null));
    const entries = [...perCustomer.values()]
      .map((e) => ({ ...e, total: sum(e.buckets) }))
      .sort((a, b) => b.total - a.total || (a.customerId ?? 0) - (b.customerId ?? 0));
    const rows = entries.map((e) => {
      const m = (minor: number) => money.v(minor, e.currency);
      return row({
        customer_id: e.customerId,
        customer_name: e.customerId === null ? null : (names.get(e.customerId) ?? null),
        currency: e.currency,
        open_invoices: e.count,
        days_0_30: m(e.buckets[0]),
        days_31_60: m(e.buckets[1]),
        days_61_90: m(e.buckets[2]),
        days_91_120: m(e.buckets[3]),
        days_120_plus: m(e.buckets[4]),
        receivables: m(e.total),
        past_due: m(e.overdue),
      });
    });
    const summary: SummaryFigure[] = [];
    const series = [];
    for (const c of scope.currencies) {
      const mine = entries.filter((e) => e.currency === c);
      const buckets = AGING_BUCKETS.map((_, i) => mine.reduce((a, e) => a + e.buckets[i], 0));
      summary.push(
        figure('receivables', money.v(sum(buckets), c), c),
        figure(
          'open_invoices',
          mine.reduce((a, e) => a + e.count, 0),
          c,
        ),
        figure('customers', mine.length, c),
        figure(
          'past_due',
          money.v(
            mine.reduce((a, e) => a + e.overdue, 0),
            c,
          ),
          c,
        ),
        ...AGING_BUCKETS.map((b, i) => figure('bucket_{range}', money.v(buckets[i], c), c, { range: b })),
      );
      series.push({ name: c, currency: c, data: AGING_BUCKETS.map((b, i) => ({ x: b, y: money.v(buckets[i], c) })) });
    }
    return reportResult(
      scope,
      summary,
      rows,
      [chart('bar', 'Open receivables by age (days since issue)', series)],
      'Balances and ages as of generated_at; invoices issued up to date_to.',
    );
  }

  async dso(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const [credit, open] = await Promise.all([
      this.kit.sum(scope, { table: SALES, groupBy: ['store_id', 'currency_code'], measures: ['on_account'] }),
      this.openInvoices(scope, true),
    ]);
    const days = scope.period.days;
    const receivablesOf = (storeIds: number[]) => open.filter((g) => storeIds.includes(g.storeId)).reduce((a, g) => a + g.balance, 0);
    const creditOf = (storeIds: number[]) => credit.filter((r) => storeIds.includes(n(r, 'store_id'))).reduce((a, r) => a + n(r, 'on_account'), 0);
    const rows = scope.stores.map((s) => {
      const rec = receivablesOf([s.id]);
      const cs = creditOf([s.id]);
      return row({
        store_id: s.id,
        store_name: s.name,
        currency: s.currencyCode,
        receivables: money.v(rec, s.currencyCode),
        credit_sales: money.v(cs, s.currencyCode),
        days,
        dso_days: daysSalesOutstanding(rec, cs, days),
      });
    });
    const summary = scope.currencies.flatMap((c) => {
      const ids = scope.stores.filter((s) => s.currencyCode === c).map((s) => s.id);
      const rec = receivablesOf(ids);
      const cs = creditOf(ids);
      return [
        figure('dso_days', daysSalesOutstanding(rec, cs, days), c),
        figure('receivables', money.v(rec, c), c),
        figure('credit_sales', money.v(cs, c), c),
        figure('days', days, c),
      ];
    });
    return reportResult(
      scope,
      summary,
      rows,
      [
        chart(
          'bar',
          'DSO by store',
          scope.currencies.map((c) => ({ name: c, currency: c, data: rows.filter((r) => r.currency === c).map((r) => ({ x: r.store_name, y: r.dso_days })) })),
        ),
      ],
      'Receivables as of generated_at.',
    );
  }

  async creditNotes(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const notes = await this.kit.rollups.creditNotes({
      from: scope.period.from,
      to: scope.period.to,
      storeIds: scope.storeIds,
      warehouseId: scope.warehouseId ?? undefined,
    });
    const names = await this.kit.customers(notes.map((c) => c.customerId).filter((id): id is number => id !== null));
    // One pass over the notes (a year can hold tens of thousands): the rows, and per currency the count, the total and the total per day.
    const perCurrency = new Map<string, { count: number; amount: number; days: Map<number, number> }>();
    const rows = notes.map((c) => {
      let mine = perCurrency.get(c.currencyCode);
      if (!mine) perCurrency.set(c.currencyCode, (mine = { count: 0, amount: 0, days: new Map() }));
      mine.count++;
      mine.amount += c.amount;
      mine.days.set(c.day, (mine.days.get(c.day) ?? 0) + c.amount);
      return row({
        id: c.id,
        number: c.number,
        date: formatDay(c.day),
        store_id: c.storeId,
        sale_id: c.saleId,
        return_id: c.returnId,
        customer_id: c.customerId,
        customer_name: c.customerId === null ? null : (names.get(c.customerId) ?? null),
        currency: c.currencyCode,
        credit_note_amount: money.v(c.amount, c.currencyCode),
        created_at: c.createdAt,
      });
    });
    const summary = scope.currencies.flatMap((c) => [
      figure('credit_notes', perCurrency.get(c)?.count ?? 0, c),
      figure('credit_note_total', money.v(perCurrency.get(c)?.amount ?? 0, c), c),
    ]);
    const perDay = (c: string): Row[] => [...(perCurrency.get(c)?.days ?? [])].map(([day, amount]) => ({ day, amount }));
    return reportResult(scope, summary, rows, [
      chart(
        'line',
        'Credit notes per day',
        scope.currencies.map((c) => ({ name: c, currency: c, data: dailyPoints(scope, perDay(c), (r) => money.v(n(r, 'amount'), c)) })),
      ),
    ]);
  }

  async funnel(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const [sold, open, settled] = await Promise.all([
      this.kit.sum(scope, { table: SALES, groupBy: ['currency_code'], measures: IM }),
      this.openInvoices(scope, false),
      this.settled(scope),
    ]);
    const rows: ReportRow[] = [];
    const summary: SummaryFigure[] = [];
    const series = [];
    for (const c of scope.currencies) {
      const t = total(
        sold.filter((r) => r.currency_code === c),
        IM,
      );
      const mine = open.filter((g) => this.currencyOf(scope, g.storeId) === c);
      const of = (pred: (g: ReceivableGroup) => boolean) => ({
        count: mine.filter(pred).reduce((a, g) => a + g.count, 0),
        balance: mine.filter(pred).reduce((a, g) => a + g.balance, 0),
      });
      const issued = n(t, 'credit_count') + n(t, 'void_credit_count');
      const unpaid = of((g) => g.status === 'issued');
      const partial = of((g) => g.status === 'partially_paid');
      const overdue = of((g) => g.overdue);
      // Settled = neither open nor void; paid in full = settled less what credit notes cancelled whole (the goods came back, nobody paid).
      const { invoicesPaidLater, creditedWhole } = settled(c);
      const paid = n(t, 'credit_count') - unpaid.count - partial.count - creditedWhole;
      const stages = [
        {
          stage: 'issued',
          label: 'On-account invoices issued',
          invoices: issued,
          amount: money.v(n(t, 'on_account') + n(t, 'void_on_account'), c),
          amount_is: 'on-account amount',
        },
        { stage: 'voided', label: 'Voided', invoices: n(t, 'void_credit_count'), amount: money.v(n(t, 'void_on_account'), c), amount_is: 'on-account amount' },
        { stage: 'any_payment', label: 'Received a payment after the sale (in part or in full)', invoices: invoicesPaidLater, amount: null, amount_is: null },
        { stage: 'paid_in_full', label: 'Paid in full', invoices: paid, amount: null, amount_is: null },
        { stage: 'unpaid', label: 'No payment yet', invoices: unpaid.count, amount: money.v(unpaid.balance, c), amount_is: 'open balance' },
        { stage: 'partially_paid', label: 'Partially paid', invoices: partial.count, amount: money.v(partial.balance, c), amount_is: 'open balance' },
        { stage: 'overdue', label: 'Past due now', invoices: overdue.count, amount: money.v(overdue.balance, c), amount_is: 'open balance' },
      ];
      for (const s of stages) rows.push(row({ ...s, currency: c, share_of_issued: percent(s.invoices, issued) }));
      summary.push(
        figure('issued', issued, c),
        figure('paid_in_full', paid, c),
        figure('collection_rate', percent(paid, n(t, 'credit_count')), c),
        figure('open_balance', money.v(unpaid.balance + partial.balance, c), c),
        figure('overdue_share', percent(overdue.count, n(t, 'credit_count')), c),
      );
      series.push({
        name: c,
        currency: c,
        data: ['issued', 'any_payment', 'paid_in_full'].map((k) => ({ x: k, y: stages.find((s) => s.stage === k)!.invoices })),
      });
    }
    return reportResult(
      scope,
      summary,
      rows,
      [chart('bar', 'On-account invoice funnel', series)],
      'Invoices issued in the period, in their state as of generated_at.',
    );
  }

  private daily(scope: ReportScope, title: string, rows: Row[], value: (r: Row, c: string) => number | null): Chart {
    const byCur = groupRows(rows, 'currency_code');
    return chart(
      'line',
      title,
      scope.currencies.map((c) => ({ name: c, currency: c, data: dailyPoints(scope, byCur.get(c) ?? [], (r) => value(r, c)) })),
    );
  }
}

function sum(values: number[]): number {
  return values.reduce((a, v) => a + v, 0);
}
