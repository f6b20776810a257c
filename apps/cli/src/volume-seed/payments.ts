import { minorToString } from '@pos/kernel';
import { settle, Settlement, Tender, TenderType } from '@pos/sales';
import { Rand } from './random';
import { Store } from './types';

/** A payment as written: what it pays towards the total, the cash handed over and its change. */
export interface PaidTender {
  code: string;
  type: TenderType;
  amount: number;
  tendered: number | null;
  change: number;
}

export interface SalePayments {
  tenders: PaidTender[];
  /** Cash handed back, over all tenders. */
  change: number;
  /** Money received at the till (cash net of change + card). */
  paid: number;
  /** Left on the customer's account (the invoice balance). */
  onAccount: number;
}

/**
 * How a sale is paid (drawn): on account (15% of the sales with a customer), half card and the rest
 * in cash, cash, or card; cash is handed over rounded up to the next 5-unit note of the currency.
 * The amounts, change and what is paid or left on account are the sales context's `settle`, as
 * at checkout; a settlement with problems is a seeder defect and stops the seed.
 */
export function paySale(rand: Rand, store: Store, total: number, hasCustomer: boolean): SalePayments {
  const r = rand();
  const note = 5 * 10 ** store.decimals;
  const cash = (amount: number): Tender & { code: string } => ({ code: 'cash', type: 'cash', amount, tendered: Math.ceil(amount / note) * note });
  const card = (amount: number): Tender & { code: string } => ({ code: 'card', type: 'card', amount });
  let given: (Tender & { code: string })[];
  if (hasCustomer && r < 0.15) given = [{ code: 'on_account', type: 'on_account', amount: total }];
  // A split needs a card part of at least one minor unit.
  else if (r < 0.2 && total >= 2) given = [card(Math.floor(total / 2)), cash(total - Math.floor(total / 2))];
  else if (r < 0.6) given = [cash(total)];
  else given = [card(total)];
  const s: Settlement = settle(total, given, (v) => minorToString(v, store.decimals));
  if (s.problems.length) throw new Error(`seed:volume: a sale of ${total} could not be settled: ${s.problems.map((p) => p.message).join(' ')}`);
  return {
    tenders: given.map((t, i) => ({ code: t.code, type: t.type, amount: s.applied[i], tendered: s.tendered[i], change: s.changeGiven[i] })),
    change: s.change,
    paid: s.paid,
    onAccount: s.onAccount,
  };
}
