import { amountToMinor } from '@pos/kernel';
import { CartRequest } from '@pos/pricing';
import { PricingCartDto, toDiscount } from './pricing.dto';

/** The HTTP cart body to the pricing request: JSON amounts in the store's currency (its `decimals`) to minor units. */
export function cartRequest(body: PricingCartDto, decimals: number): CartRequest {
  return {
    storeId: body.store_id,
    customerId: body.customer_id,
    taxExempt: body.tax_exempt ?? false,
    taxExemptReason: body.tax_exempt_reason,
    cartDiscount: toDiscount(body.cart_discount_type, body.cart_discount_value, 'cart_discount', decimals),
    lines: body.items.map((l, i) => ({
      itemId: l.id,
      quantity: l.qty,
      unitId: l.unit_id,
      price: l.price === undefined ? undefined : amountToMinor(l.price, decimals, `items.${i}.price`),
      discount: toDiscount(l.discount_type, l.discount_value, `items.${i}.discount`, decimals),
    })),
  };
}
