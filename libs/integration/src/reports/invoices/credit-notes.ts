import { chart, dailyPoints, n, perCurrency } from '../../application/report-kit';
import { formatDay } from '../../domain/calendar';
import { figure, row } from '../../domain/report-figures';
import { defineReport, rowsOnPage } from '../definition';

// A compute report: one row per credit note (a list, not a rollup grain).
export default defineReport({
  route: 'invoices/credit-notes',
  operation: 'getCreditNotesReport',
  title: 'Invoices: credit notes',
  description: 'Credit notes issued by processed returns in the period: number, sale, return, customer, amount.',
  permission: 'reports.sales',
  summary: ['credit_notes', 'credit_note_total'],
  columns: ['id', 'number', 'date', 'store_id', 'sale_id', 'return_id', 'customer_id', 'customer_name', 'currency', 'credit_note_amount', 'created_at'],
  build: async (ctx) => {
    const { scope, money } = ctx;
    const notes = await ctx.kit.rollups.creditNotes({
      from: scope.period.from,
      to: scope.period.to,
      storeIds: scope.storeIds,
      warehouseId: scope.warehouseId ?? undefined,
    });
    // One pass over the notes (a year can hold tens of thousands): per currency the count, the total and the total per day.
    const byCurrency = new Map<string, { count: number; amount: number; days: Map<number, number> }>();
    for (const c of notes) {
      let mine = byCurrency.get(c.currencyCode);
      if (!mine) byCurrency.set(c.currencyCode, (mine = { count: 0, amount: 0, days: new Map() }));
      mine.count++;
      mine.amount += c.amount;
      mine.days.set(c.day, (mine.days.get(c.day) ?? 0) + c.amount);
    }
    // Rows (and customer names) only for the page asked: a year is 24k notes, 48 pages of 500.
    const page = rowsOnPage(notes, ctx.rows);
    const names = await ctx.kit.customers(page.map((c) => c.customerId).filter((id): id is number => id !== null));
    const rows = page.map((c) =>
      row({
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
      }),
    );
    const summary = scope.currencies.flatMap((c) => [
      figure('credit_notes', byCurrency.get(c)?.count ?? 0, c),
      figure('credit_note_total', money.v(byCurrency.get(c)?.amount ?? 0, c), c),
    ]);
    const perDay = (c: string): { day: number; amount: number }[] => [...(byCurrency.get(c)?.days ?? [])].map(([day, amount]) => ({ day, amount }));
    const series = perCurrency(scope, (c) => dailyPoints(scope, perDay(c), (r) => money.v(n(r, 'amount'), c)));
    return { summary, rows, rowsTotal: notes.length, charts: [chart('line', 'Credit notes per day', series)] };
  },
});
