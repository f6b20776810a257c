import { defineView, s } from '../http/openapi';

/** A sale flagged for a manager's review (GET /sales/reviews, and an offline upload's result for a flagged sale). */
export const SaleReviewView = defineView('SaleReview', {
  id: s.int(),
  sale_id: s.int(),
  receipt_number: s.string(),
  store_id: s.int(),
  user_id: s.int('The cashier who made the sale'),
  reason: s.string('Why it is flagged: offline_price_below_reference, offline_discount_beyond_limits (the list is open)'),
  status: s.enum(['open', 'resolved']),
  currency: s.string(),
  difference: s.money('The flagged lines: reference amounts minus what was charged, added up'),
  lines: s.array(
    s.object({
      line: s.int('Position in the sale'),
      item_id: s.int(),
      quantity: s.int(),
      unit_price: s.money('The unit price the terminal charged'),
      amount: s.money("Charged for the line before the cart discount (after the line's own discount)"),
      reference_unit_price: s.money("The server's unit price at the time of the sale"),
      reference_amount: s.money("The server's amount for the line then, before manual discounts"),
      difference: s.money('reference_amount - amount'),
      percent: s.percent('The difference as a share of the reference'),
      decision: s.enum(
        [
          'beyond_limits',
          'approval_invalid',
          'line_discount_beyond_limits',
          'line_discount_approval_invalid',
          'cart_discount_beyond_limits',
          'cart_discount_approval_invalid',
        ],
        "Beyond the cashier's discount limits, with no approval token or one that does not verify: the price charged below the reference (beyond_limits, approval_invalid), or an explicit line or cart discount (its share of the line)",
      ),
    }),
  ),
  sale_created_at: s.dateTime('When the sale happened (offline_created_at)'),
  created_at: s.dateTime('When it was flagged (the upload)'),
  resolved_at: s.nullable(s.dateTime()),
  resolved_by: s.nullable(s.int()),
  resolution_note: s.nullable(s.string()),
});
