/**
 * Settling a sale's total with the tenders given (decisions.md):
 * - payments must cover the total; cash may be over-tendered (the change is computed and is
 *   never more than the cash given); non-cash payments may not exceed what is still due;
 * - `on_account` tenders are not money received: they leave the invoice balance.
 * Amounts are integer minor units.
 */
export type TenderType = 'cash' | 'card' | 'on_account' | 'other';

export interface Tender {
  type: TenderType;
  amount: number;
}

export interface Settlement {
  /** What each tender pays towards the total (cash net of change). */
  applied: number[];
  /** Change handed back on each tender (only cash tenders give change, first cash tender first). */
  changeGiven: number[];
  change: number;
  /** Money received at the till (cash net of change + card/other). */
  paid: number;
  onAccount: number;
  problems: { index: number | null; message: string }[];
}

/** `format` writes amounts in messages (minor units to the currency's decimals). */
export function settle(total: number, tenders: Tender[], format: (minor: number) => string = String): Settlement {
  const problems: Settlement['problems'] = [];
  tenders.forEach((t, i) => {
    if (!Number.isSafeInteger(t.amount) || t.amount <= 0) problems.push({ index: i, message: 'The amount must be greater than 0.' });
  });
  const sum = (type?: TenderType, not?: boolean) =>
    tenders.filter((t) => (type === undefined ? true : not ? t.type !== type : t.type === type)).reduce((a, t) => a + t.amount, 0);
  const cash = sum('cash');
  const nonCash = sum('cash', true);
  const given = cash + nonCash;
  if (nonCash > total) {
    const i = tenders.findIndex((t) => t.type !== 'cash');
    problems.push({ index: i, message: 'Non-cash payments cannot exceed the amount due.' });
  }
  if (given < total) problems.push({ index: null, message: `The payments (${format(given)}) do not cover the total (${format(total)}).` });
  const change = Math.max(0, Math.min(cash, given - total));
  // Cash is applied net of change, first cash tender first.
  let changeLeft = change;
  const changeGiven = tenders.map((t) => {
    if (t.type !== 'cash' || changeLeft === 0) return 0;
    const take = Math.min(changeLeft, t.amount);
    changeLeft -= take;
    return take;
  });
  const applied = tenders.map((t, i) => t.amount - changeGiven[i]);
  const onAccount = sum('on_account');
  return { applied, changeGiven, change, paid: given - change - onAccount, onAccount, problems };
}
