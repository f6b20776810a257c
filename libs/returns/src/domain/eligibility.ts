/** Whether a sale can (still) be returned, and why not (GET /returns/check-sale, POST /returns). */
export interface Eligibility {
  eligible: boolean;
  reason: 'sale_voided' | 'sale_refunded' | 'sale_not_returnable' | 'return_window_expired' | 'nothing_returnable' | null;
  message: string | null;
  /** The last moment a return can be made (sold at + window). */
  deadline: Date;
}

const DAY_MS = 86_400_000;

/**
 * A completed or partially refunded sale can be returned within `windowDays` of when it was sold
 * (an offline sale: when the device made it), while some unit is not yet held by a return
 * (`unitsLeft`; not given when the caller reports exhausted lines one by one).
 */
export function returnEligibility(sale: { status: string; soldAt: Date }, now: Date, windowDays: number, unitsLeft?: number): Eligibility {
  const deadline = new Date(sale.soldAt.getTime() + windowDays * DAY_MS);
  const no = (reason: Exclude<Eligibility['reason'], null>, message: string): Eligibility => ({ eligible: false, reason, message, deadline });
  if (sale.status === 'voided') return no('sale_voided', 'The sale was voided; it cannot be returned.');
  if (sale.status === 'refunded') return no('sale_refunded', 'The sale has been fully refunded.');
  if (sale.status !== 'completed' && sale.status !== 'partially_refunded') return no('sale_not_returnable', `A ${sale.status} sale cannot be returned.`);
  if (now.getTime() > deadline.getTime()) return no('return_window_expired', `The return window of ${windowDays} day(s) ended on ${deadline.toISOString()}.`);
  if (unitsLeft !== undefined && unitsLeft <= 0) return no('nothing_returnable', 'Every unit of the sale is already returned or held by a pending return.');
  return { eligible: true, reason: null, message: null, deadline };
}
