import { Findings } from './known-defects';
import { Answer, World } from './harness';
import { Op } from './operations';
import { offlineSale, sale, voidSale } from './exec-sales';
import { cashMove, invoicePayment, returnOp, sessionOp, stockOp } from './exec-other';

/**
 * Runs a sequence through the HTTP API. Every answer is judged on the spot: a 5xx fails the
 * property, and a refusal (4xx) must leave no trace in the books (the row counts of every table
 * a sale, return, payment, session or stock change writes are the same after it as before).
 */
export async function runSequence(w: World, ops: Op[], f: Findings): Promise<void> {
  for (const [i, op] of ops.entries()) {
    w.log.push(`#${i} ${JSON.stringify(op)}`);
    await APPLY[op.kind](w, op as never, f);
  }
}

const APPLY: { [K in Op['kind']]: (w: World, op: Extract<Op, { kind: K }>, f: Findings) => Promise<void> } = {
  sale,
  offline_sale: offlineSale,
  void: voidSale,
  return: returnOp,
  session: sessionOp,
  cash_move: cashMove,
  invoice_payment: invoicePayment,
  stock: stockOp,
};

const TRACED = [
  'sales',
  'sale_items',
  'sale_payments',
  'invoices',
  'invoice_payments',
  'stock_movements',
  'cash_movements',
  'cashier_sessions',
  'sale_returns',
  'sale_return_items',
  'return_refunds',
  'credit_notes',
  'outbox_events',
];

async function traceCounts(w: World): Promise<Record<string, number>> {
  const [row] = await w.suite.q(`SELECT ${TRACED.map((t) => `(SELECT COUNT(*) FROM ${t}) AS ${t}`).join(', ')}`);
  return Object.fromEntries(TRACED.map((t) => [t, Number(row[t])]));
}

/**
 * Sends a request that may change the books; judges a 5xx, and a refusal's trace (a 4xx, or what
 * `refused` says is one: a rejected offline transaction inside a 200).
 */
export async function mutate(
  w: World,
  f: Findings,
  label: string,
  send: () => Promise<Answer>,
  refused: (res: Answer) => boolean = (res) => res.status >= 400,
): Promise<Answer> {
  const before = await traceCounts(w);
  const res = await send();
  w.log.push(`  ${label} -> ${res.status}${res.status >= 400 ? ` ${brief(res.body)}` : ''}`);
  f.expect(res.status < 500, `${label} answered ${res.status}`, () => brief(res.body));
  if (res.status < 500 && refused(res)) f.equal(await traceCounts(w), before, `${label} refused (${res.status}) left no trace`);
  return res;
}

/** Reads (GET) are judged for 5xx only. */
export function judgeRead(w: World, f: Findings, label: string, res: Answer): Answer {
  f.expect(res.status < 500, `${label} answered ${res.status}`, () => brief(res.body));
  return res;
}

export function brief(body: unknown): string {
  const b = body as { message?: string; code?: string; errors?: unknown };
  return JSON.stringify({ code: b?.code, message: b?.message, errors: b?.errors }).slice(0, 300);
}
