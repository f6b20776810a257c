import { ValidationFailedError, toMinor } from '@pos/kernel';
import { CartRequest } from '@pos/pricing';
import { PricingCartDto, toDiscount } from './pricing.dto';

/** The HTTP cart body to the pricing use case's request (decimals to minor units, bp). */
export function cartRequest(body: PricingCartDto): CartRequest {
  if (body.tax_exempt && body.customer_id === undefined && !body.tax_exempt_reason) {
    throw ValidationFailedError.field('tax_exempt_reason', 'A tax-exempt sale needs a customer_id or a tax_exempt_reason.');
  }
  return {
    storeId: body.store_id,
    customerId: body.customer_id,
    taxExempt: body.tax_exempt ?? false,
    cartDiscount: toDiscount(body.cart_discount_type, body.cart_discount_value, 'cart_discount'),
    lines: body.items.map((l, i) => ({
      itemId: l.id,
      quantity: l.qty,
      unitId: l.unit_id,
      price: l.price === undefined ? undefined : toMinor(l.price),
      discount: toDiscount(l.discount_type, l.discount_value, `items.${i}.discount`),
    })),
  };
}
