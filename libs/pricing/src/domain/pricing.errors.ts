import { ForbiddenError, ValidationFailedError } from '@pos/kernel';

/** The pricing context's errors, each with its stable code. */
export const PricingErrors = {
  approverLimit: () => new ForbiddenError("The discount is beyond the approver's own limit.", 'approver_limit'),
  approverNotVerified: () =>
    ValidationFailedError.field('approver_email', 'These approver credentials do not match our records, or they may not approve discounts here.'),
};
