import { AgingGroup, ReceivableFilter, ReceivableGroup, ReceivablesReader } from '@pos/sales';
import { InvoiceSettlement, InvoiceSettlementReader } from '../../application/invoice-settlement.reader';
import type { StoreWindow } from '../../application/session-drawer.reader';
import { ZoneCalendar } from '../../domain/calendar';
import type { ReportScope } from '../../application/report-scope';
import type { ReportContext } from '../definition';

/**
 * What the invoice reports share. Every completed sale has an invoice; the invoices that matter
 * here are the on-account ones (a balance left at the till). Issue-side figures come from the
 * sales rollups (credit sales, voids); the current state of the open invoices (balances, age,
 * past due) from the sales context's published ReceivablesReader (one grouped query over the
 * open invoices). Aging and receivables describe now; date_to limits them to invoices issued up
 * to that day.
 */

/** The sales rollup measures of the invoices issued (invoices, funnel). */
export const ISSUED = [
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
] as const;

/** Each store's business days of the period as instants. */
function windows(scope: ReportScope): StoreWindow[] {
  return scope.stores.map((s) => {
    const cal = ZoneCalendar.of(s.timeZone);
    return { storeId: s.id, from: cal.startOf(scope.period.from), to: cal.startOf(scope.period.to + 1) };
  });
}

/** Open invoices of the scope's stores issued in the period (or, `upToEnd`, at any time up to its end). */
export function openInvoices(ctx: ReportContext, upToEnd: boolean): Promise<ReceivableGroup[]> {
  return ctx.use(ReceivablesReader).open(openFilter(ctx, upToEnd));
}

/** Open invoices issued up to the period's end, per store and customer, their balances split at the cutoffs (aging). */
export function agingGroups(ctx: ReportContext, ageCutoffs: Date[]): Promise<AgingGroup[]> {
  return ctx.use(ReceivablesReader).aging({ ...openFilter(ctx, true), ageCutoffs });
}

function openFilter(ctx: ReportContext, upToEnd: boolean): ReceivableFilter {
  return {
    windows: windows(ctx.scope).map((w) => (upToEnd ? { storeId: w.storeId, to: w.to } : w)),
    warehouseId: ctx.scope.warehouseId ?? undefined,
    now: ctx.scope.now,
  };
}

/** Per currency: what became of the on-account invoices issued in the period (payments received later, credited whole). */
export async function settled(ctx: ReportContext): Promise<(currency: string) => Omit<InvoiceSettlement, 'storeId'>> {
  const { scope } = ctx;
  const list = await ctx.use(InvoiceSettlementReader).settled({ windows: windows(scope), warehouseId: scope.warehouseId ?? undefined });
  return (c) => {
    const mine = list.filter((s) => currencyOf(scope, s.storeId) === c);
    const add = (k: 'invoicesPaidLater' | 'collected' | 'creditedWhole') => mine.reduce((a, s) => a + s[k], 0);
    return { invoicesPaidLater: add('invoicesPaidLater'), collected: add('collected'), creditedWhole: add('creditedWhole') };
  };
}

export function currencyOf(scope: ReportScope, storeId: number): string {
  return scope.stores.find((s) => s.id === storeId)?.currencyCode ?? '';
}
