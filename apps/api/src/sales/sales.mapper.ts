import { amountToMinor, FieldErrorCollector } from '@pos/kernel';
import { CheckoutInput } from '@pos/sales';
import { toDiscount } from '../pricing/pricing.mapper';
import { CheckoutDto, CheckoutValidateDto } from './sales.dto';

/** A line's or the cart's discount: a type and value, or (legacy) only a positive amount off. */
function discountOf(type: string | undefined, value: number | undefined, amount: number | undefined, field: string, decimals: number) {
  if (!type && amount !== undefined && amount > 0) return { type: 'amount' as const, value: amountToMinor(amount, decimals, `${field}_amount`) };
  return toDiscount(type, value, field, decimals);
}

/**
 * The checkout body (or validate's, where the total, the tenders and the key are optional) to the
 * use case's input: JSON amounts in the store's currency (its `decimals`) to minor units.
 */
export function checkoutInput(b: CheckoutDto | CheckoutValidateDto, decimals: number): CheckoutInput {
  const errors = new FieldErrorCollector(); // every amount that does not fit the currency, named at once
  const money = (v: number, field: string) => errors.take(() => amountToMinor(v, decimals, field));
  const discount = (...a: Parameters<typeof discountOf>) => errors.take(() => discountOf(...a));
  // The till's own figures the server does not use: still held to the currency, like every amount.
  if (b.subtotal !== undefined) money(b.subtotal, 'subtotal');
  if (b.total_discount !== undefined) money(b.total_discount, 'total_discount');
  const input: CheckoutInput = {
    storeId: b.store_id,
    idempotencyKey: b.idempotency_key ?? '', // validate writes nothing: no key needed
    totalAmount: b.total_amount === undefined ? undefined : money(b.total_amount, 'total_amount'),
    customerId: b.customer_id,
    reference: b.reference,
    taxExempt: b.tax_exempt,
    taxExemptReason: b.tax_exempt_reason,
    offlineCreatedAt: b.offline_created_at ? new Date(b.offline_created_at) : undefined,
    cartDiscount: discount(b.cart_discount_type, b.cart_discount_value, b.cart_discount_amount, 'cart_discount', decimals),
    cartDiscountReason: b.cart_discount_reason,
    cartDiscountApprovalToken: b.cart_discount_approval_token,
    legacyPaymentMethod: b.payment_method,
    legacyPaymentMethodId: b.payment_method_id,
    items: b.items.map((l, i) => ({
      itemId: l.id,
      qty: l.qty,
      unitId: l.unit_id,
      warehouseId: l.warehouse_id,
      serialNumber: l.serial_number,
      price: l.price === undefined ? undefined : money(l.price, `items.${i}.price`),
      discount: discount(l.discount_type, l.discount_value, l.discount_amount, `items.${i}.discount`, decimals),
      discountReason: l.discount_reason,
      discountApprovalToken: l.discount_approval_token,
      baseQuantity: l.base_quantity,
    })),
    payments: (b.payments ?? []).map((p, i) => ({
      code: p.payment_method_code,
      methodId: p.payment_method_id,
      amount: money(p.amount, `payments.${i}.amount`),
      tendered: p.tendered === undefined ? undefined : money(p.tendered, `payments.${i}.tendered`),
      change: p.change === undefined ? undefined : money(p.change, `payments.${i}.change`),
      reference: p.reference,
    })),
  };
  errors.check();
  return input;
}

/** GET /sales/:sale: the sale with its returns, composed at the edge so the sales context never depends on returns. */
export function saleWithReturnsView<S extends object, R>(sale: S, returns: R) {
  return { ...sale, returns };
}
