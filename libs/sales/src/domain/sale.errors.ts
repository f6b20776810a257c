import { BadRequestError, ConflictError, FieldErrors, ForbiddenError, RuleViolationError, ValidationFailedError } from '@pos/kernel';

/** The sales context's errors, each with its stable code (the HTTP status follows from the kind). */
export const SaleErrors = {
  /** The cart cannot be sold as it stands (payments, tenders, units, serials, warehouses): 400 with the fields. */
  checkoutInvalid: (fields: FieldErrors) => new RuleViolationError(fields, 'checkout_invalid', 'The checkout could not be validated.'),
  totalMismatch: (client: number, server: number) =>
    new BadRequestError('total_mismatch', `The total_amount ${client} does not match the server total ${server}.`, {
      client_total: client,
      server_total: server,
    }),
  discountRequiresApproval: (what: string, amount: number, percentBp: number) =>
    new ForbiddenError(
      `The ${what} (${amount}, ${percentBp / 100}%) is beyond your limit; a manager's approval token is required.`,
      'discount_requires_approval',
    ),
  idempotencyInFlight: () => new ConflictError('idempotency_in_flight', 'A request with this idempotency key is still being processed; retry shortly.', 1),
  idempotencyKeyReused: () => ValidationFailedError.field('idempotency_key', 'This idempotency key was already used for a different request.'),
  notVoidable: (status: string) => new ConflictError('sale_not_voidable', `A ${status} sale cannot be voided.`),
  hasReturns: () => new ConflictError('sale_has_returns', 'A sale with returns cannot be voided.'),
  hasOpenReturns: () => new ConflictError('sale_has_returns', 'The sale has returns pending or approved: reject or cancel them before voiding it.'),
  paidOnAccount: () =>
    new ConflictError(
      'invoice_has_payments',
      "The sale's invoice has payments recorded after the sale: a void cannot give them back; take a return, which refunds them.",
    ),
  invoiceVoid: () => new ConflictError('invoice_void', 'A voided invoice cannot be paid.'),
  invoicePaid: () => new ConflictError('invoice_paid', 'The invoice is already paid.'),
};
