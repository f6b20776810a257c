/**
 * Settling a sale's total with the tenders given (decisions.md), amounts in integer minor units:
 * - a tender's `amount` is what it pays towards the total; cash may carry `tendered`, the cash
 *   handed over (>= amount), and its change is `tendered - amount`;
 * - cash may also be over-tendered through `amount` itself (older tills send 20.00 for 18.50):
 *   the excess over the total is change, taken from the cash tenders, last one first;
 * - non-cash tenders give no change: their `tendered`, if sent, repeats the amount, and together
 *   they may not exceed the total;
 * - `on_account` tenders are not money received: they leave the invoice balance;
 * - a `change` the till sent must be the change computed here (a till that disagrees about the
 *   drawer is refused, not silently corrected).
 * Afterwards, for every tender: tendered = applied + change, and the applied amounts sum to the total.
 */
export type TenderType = 'cash' | 'card' | 'on_account' | 'other';

export interface Tender {
  type: TenderType;
  amount: number;
  /** Cash handed over (cash tenders); absent: the amount itself. */
  tendered?: number;
  /** The change the till computed, to be checked. */
  change?: number;
}

export type TenderField = 'amount' | 'tendered' | 'change';

export interface Settlement {
  /** What each tender pays towards the total (cash net of change). */
  applied: number[];
  /** What each tender handed over: cash tendered, or the amount (null for non-cash without `tendered`). */
  tendered: (number | null)[];
  /** Change handed back on each tender (cash tenders only). */
  changeGiven: number[];
  change: number;
  /** Money received at the till (cash net of change + card/other). */
  paid: number;
  onAccount: number;
  problems: { index: number | null; field?: TenderField; message: string }[];
}

/** `format` writes amounts in messages (minor units to the currency's decimals). */
export function settle(total: number, tenders: Tender[], format: (minor: number) => string): Settlement {
  const problems: Settlement['problems'] = [];
  const isMoney = (v: number) => Number.isSafeInteger(v) && v > 0;
  tenders.forEach((t, i) => {
    if (!isMoney(t.amount)) problems.push({ index: i, field: 'amount', message: 'The amount must be greater than 0.' });
    if (t.tendered === undefined) return;
    if (t.type !== 'cash' && t.tendered !== t.amount)
      problems.push({ index: i, field: 'tendered', message: 'Only cash is tendered: on this payment, tendered may only repeat the amount.' });
    else if (t.type === 'cash' && !(Number.isSafeInteger(t.tendered) && t.tendered >= t.amount))
      problems.push({ index: i, field: 'tendered', message: `The cash tendered (${format(t.tendered)}) must be at least the amount (${format(t.amount)}).` });
  });
  const amounts = tenders.map((t) => t.amount);
  const sum = (pick: (t: Tender) => boolean) => tenders.reduce((a, t, i) => (pick(t) ? a + amounts[i] : a), 0);
  const nonCash = sum((t) => t.type !== 'cash');
  const given = sum(() => true);
  if (nonCash > total) {
    const i = tenders.findIndex((t) => t.type !== 'cash');
    problems.push({ index: i, field: 'amount', message: 'Non-cash payments cannot exceed the amount due.' });
  }
  if (given < total) problems.push({ index: null, message: `The payments (${format(given)}) do not cover the total (${format(total)}).` });
  // An amount beyond the total is over-tendered cash: change, from the last cash handed over back.
  let excessLeft = Math.max(0, given - total);
  const excess = tenders.map(() => 0);
  for (let i = tenders.length - 1; i >= 0 && excessLeft > 0; i--) {
    if (tenders[i].type !== 'cash') continue;
    excess[i] = Math.min(excessLeft, Math.max(0, amounts[i]));
    excessLeft -= excess[i];
  }
  const applied = amounts.map((a, i) => a - excess[i]);
  const changeGiven = tenders.map((t, i) => (t.type === 'cash' ? Math.max(0, (t.tendered ?? t.amount) - t.amount) + excess[i] : 0));
  tenders.forEach((t, i) => {
    if (t.type === 'cash' && isMoney(t.amount) && applied[i] === 0 && given >= total && nonCash <= total)
      problems.push({ index: i, field: 'amount', message: 'The payments exceed the total: this cash payment would all be handed back as change.' });
    if (t.change !== undefined && t.change !== changeGiven[i])
      problems.push({ index: i, field: 'change', message: `The change on this payment is ${format(changeGiven[i])}, not ${format(t.change)}.` });
  });
  const tendered = tenders.map((t) => (t.type === 'cash' ? (t.tendered ?? t.amount) : (t.tendered ?? null)));
  const change = changeGiven.reduce((a, b) => a + b, 0);
  const onAccount = sum((t) => t.type === 'on_account');
  return { applied, tendered, changeGiven, change, paid: given - excess.reduce((a, b) => a + b, 0) - onAccount, onAccount, problems };
}
