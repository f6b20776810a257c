import { ValidationFailedError } from '@pos/kernel';
import { CreateRuleDto, PricingValidateDto } from './pricing.dto';
import { asItemFieldError, cartValidationView, ruleCreateInput, toDiscount } from './pricing.mapper';

type ServerCart = Parameters<typeof cartValidationView>[1];

/** The server's view of a two-line cart, in a currency of 2 decimals (only the figures compared). */
const server = {
  subtotal: 30,
  tax_total: 2.4,
  total: 32.4,
  items: [
    { unit_price: 10, total: 10 },
    { unit_price: 5, total: 20 },
  ],
} as unknown as ServerCart;

const body = (over: Partial<PricingValidateDto> = {}) =>
  ({
    items: [
      { id: 1, qty: 1 },
      { id: 2, qty: 4 },
    ],
    total_amount: 32.4,
    ...over,
  }) as PricingValidateDto;

function fieldsOf(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationFailedError) return e.fields;
    throw e;
  }
  throw new Error('expected a ValidationFailedError');
}

describe('pricing mapper', () => {
  it('cart validation: figures that agree are valid; each one that differs is a discrepancy naming its line and field', () => {
    expect(cartValidationView(body({ subtotal: 30, tax_total: 2.4 }), server, 2)).toEqual({ valid: true, discrepancies: [], server });
    const items = [
      { id: 1, qty: 1, price: 10, total: 10 },
      { id: 2, qty: 4, price: 4.5, total: 18 },
    ];
    const view = cartValidationView(body({ items, subtotal: 28, total_amount: 30.4 }), server, 2);
    expect(view.valid).toBe(false);
    expect(view.discrepancies).toEqual([
      { line: 1, field: 'price', client: 4.5, server: 5 },
      { line: 1, field: 'total', client: 18, server: 20 },
      { line: null, field: 'subtotal', client: 28, server: 30 },
      { line: null, field: 'total_amount', client: 30.4, server: 32.4 },
    ]);
  });

  it("cart validation: a client figure with more decimals than the store's currency is a 422 on that field", () => {
    expect(fieldsOf(() => cartValidationView(body({ total_amount: 32.4 }), server, 0))).toHaveProperty(['total_amount']);
    expect(
      fieldsOf(() =>
        cartValidationView(
          body({
            items: [
              { id: 1, qty: 1, price: 10.001 },
              { id: 2, qty: 4 },
            ],
          }),
          server,
          2,
        ),
      ),
    ).toHaveProperty(['items.0.price']);
  });

  it("one item: a cart line's problems are reported on the body's own fields, other errors pass through", () => {
    const e = asItemFieldError(new ValidationFailedError({ 'items.0.id': ['gone'], 'items.0.unit_id': ['wrong unit'], items: ['empty'], store_id: ['no'] }));
    expect((e as ValidationFailedError).fields).toEqual({ item_id: ['gone'], unit_id: ['wrong unit'], quantity: ['empty'], store_id: ['no'] });
    const other = new Error('boom');
    expect(asItemFieldError(other)).toBe(other);
  });

  it('discounts: percent to basis points (at most 100), amounts to minor units; a type needs a value and a value a type', () => {
    expect(toDiscount('percentage', 12.5, 'discount', 2)).toEqual({ type: 'percent', valueBp: 1250 });
    expect(toDiscount('fixed', 1.25, 'discount', 2)).toEqual({ type: 'amount', value: 125 });
    expect(toDiscount(undefined, 0, 'discount', 2)).toBeUndefined();
    expect(fieldsOf(() => toDiscount('percent', 101, 'discount', 2))).toHaveProperty(['discount_value']);
    expect(fieldsOf(() => toDiscount(undefined, 5, 'cart_discount', 2))).toHaveProperty(['cart_discount_type']);
    expect(fieldsOf(() => toDiscount('amount', undefined, 'discount', 2))).toHaveProperty(['discount_value']);
    expect(fieldsOf(() => toDiscount('amount', 1.5, 'discount', 0))).toHaveProperty(['discount_value']);
  });

  it('a new rule: defaults under the body, a date-only valid_to is inclusive of its day', () => {
    const rule = ruleCreateInput({ name: 'Summer', kind: 'percent_off', percent_off: 10, valid_to: '2026-08-31', item_ids: [3] } as CreateRuleDto, 2);
    expect(rule).toMatchObject({ name: 'Summer', kind: 'percent_off', priority: 0, exclusive: false, active: true, description: null });
    expect(rule.conditions).toEqual({ itemIds: [3], validTo: new Date('2026-08-31T23:59:59.999Z') });
  });
});
