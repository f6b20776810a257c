/**
 * Where a refund goes (decisions.md): back to the original payment methods, cash first (up to
 * what was paid in cash, net of change, less cash already refunded), then the other tenders in
 * the order they were paid; an on_account tender can take back at most what is still owed on
 * the invoice (its part of the refund reduces the balance instead of handing money out).
 * Amounts are integer minor units.
 */
export interface PaidTender {
  paymentMethodId: number;
  methodCode: string;
  methodType: string;
  amount: number;
}

export interface RefundableTender extends PaidTender {
  /** What this method can still take back. */
  available: number;
}

export interface RefundPart {
  paymentMethodId: number;
  methodCode: string;
  methodType: string;
  amount: number;
}

/**
 * What each payment method can still take back: what was paid with it (one entry per method, in
 * the order each was first used) less what earlier refunds gave back to it; on_account also no
 * more than the invoice balance still owed.
 */
export function refundableTenders(paid: PaidTender[], refunded: { paymentMethodId: number; amount: number }[], invoiceBalance: number): RefundableTender[] {
  const byMethod = new Map<number, RefundableTender>();
  for (const p of paid) {
    const entry = byMethod.get(p.paymentMethodId);
    if (entry) entry.amount += p.amount;
    else byMethod.set(p.paymentMethodId, { ...p, available: 0 });
  }
  const back = new Map<number, number>();
  for (const r of refunded) back.set(r.paymentMethodId, (back.get(r.paymentMethodId) ?? 0) + r.amount);
  let owed = Math.max(0, invoiceBalance);
  return [...byMethod.values()].map((t) => {
    let available = Math.max(0, t.amount - (back.get(t.paymentMethodId) ?? 0));
    if (t.methodType === 'on_account') {
      available = Math.min(available, owed);
      owed -= available;
    }
    return { ...t, available };
  });
}

export class RefundExceedsPaymentsError extends Error {
  constructor(
    readonly amount: number,
    readonly available: number,
  ) {
    super(`The refund (${amount}) is more than the payments can take back (${available}).`);
  }
}

/** Splits `amount` over the tenders: cash first, then the others in order. Throws when they cannot take it all. */
export function splitRefund(amount: number, tenders: RefundableTender[]): RefundPart[] {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError('amount must be a non-negative integer');
  const ordered = [...tenders.filter((t) => t.methodType === 'cash'), ...tenders.filter((t) => t.methodType !== 'cash')];
  const parts: RefundPart[] = [];
  let left = amount;
  for (const t of ordered) {
    if (left === 0) break;
    const take = Math.min(left, Math.max(0, t.available));
    if (take <= 0) continue;
    parts.push({ paymentMethodId: t.paymentMethodId, methodCode: t.methodCode, methodType: t.methodType, amount: take });
    left -= take;
  }
  if (left > 0) throw new RefundExceedsPaymentsError(amount, amount - left);
  return parts;
}
