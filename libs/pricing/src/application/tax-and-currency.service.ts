import { Injectable } from '@nestjs/common';
import { amountToMinor, Clock, fromMinor, NotFoundError, roundHalfAwayFromZero, toMinor, ValidationFailedError } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { ReferenceRepository } from './reference.ports';
import { PricingRepository } from './pricing.ports';
import { PricedCartResult, taxRateFor } from './pricing.service';
import { AuditLog, Transactional } from '@pos/platform';

const RATE_SCALE = 100_000_000;

/** Tax information of a store and currency conversion with stored exchange rates. */
@Injectable()
export class TaxAndCurrencyService {
  constructor(
    private readonly stores: StoreContext,
    private readonly reference: ReferenceRepository,
    private readonly pricing: PricingRepository,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async taxInfo(principal: Principal, storeIdParam?: number) {
    const store = await this.stores.resolve(principal, storeIdParam);
    const storeId = store.id;
    const classes = await this.reference.taxClasses();
    const rates = await this.reference.taxRates(
      classes.map((c) => c.id),
      storeId,
    );
    return {
      store_id: store.id,
      currency: store.currencyCode,
      prices_include_tax: store.pricesIncludeTax,
      rounding: 'half away from zero, per line, to the currency minor unit',
      exemption: 'tax_exempt: true zeroes tax; it needs a customer_id or a tax_exempt_reason',
      tax_classes: classes.map((c) => ({
        id: c.id,
        code: c.code,
        name: c.name,
        rate: taxRateFor(c.id, rates, storeId) / 100,
        rates: rates
          .filter((r) => r.taxClassId === c.id && (r.storeId === storeId || !rates.some((o) => o.taxClassId === c.id && o.storeId === storeId)))
          .map((r) => ({ id: r.id, name: r.name, rate: r.rateBp / 100, store_id: r.storeId })),
      })),
    };
  }

  /** The tax part of a priced cart: lines and one row per rate. */
  taxView(r: PricedCartResult) {
    const m = (v: number) => fromMinor(v, r.decimals);
    // Amounts before tax (the books) in either tax mode; an exempt cart's lines are one row of their
    // own (rate 0, exempt), never counted in the rate their item would have paid.
    const byRate = new Map<number, { taxable: number; tax: number }>();
    for (const l of r.cart.lines) {
      const rate = r.taxExempt ? 0 : l.taxRateBp;
      const row = byRate.get(rate) ?? { taxable: 0, tax: 0 };
      row.taxable += l.books.net;
      row.tax += l.tax;
      byRate.set(rate, row);
    }
    return {
      store_id: r.store.id,
      prices_include_tax: r.store.pricesIncludeTax,
      tax_exempt: r.taxExempt,
      items: r.cart.lines.map((l, i) => ({
        line: i,
        item_id: l.itemId,
        net: m(l.books.net),
        tax_rate: l.taxRateBp / 100,
        tax: m(l.tax),
        tax_exempted: m(l.exemptedTax),
        total: m(l.total),
      })),
      tax_lines: [...byRate.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([rate, v]) => ({ rate: rate / 100, exempt: r.taxExempt, taxable: m(v.taxable), tax: m(v.tax) })),
      subtotal: m(r.cart.subtotal - r.cart.discountTotal),
      tax_total: m(r.cart.taxTotal),
      total: m(r.cart.total),
    };
  }

  /** amount (decimal, in `from`) converted to `to`, rounded to the target's own minor unit. */
  async convert(amount: number, fromCode: string, toCode: string) {
    const [from, to] = await Promise.all([this.reference.currency(fromCode.toUpperCase()), this.reference.currency(toCode.toUpperCase())]);
    if (!from) throw ValidationFailedError.field('from', 'The selected currency does not exist.');
    if (!to) throw ValidationFailedError.field('to', 'The selected currency does not exist.');
    const at = this.clock.now();
    const rateOf = async (c: { code: string; isBase: boolean }, field: string) => {
      if (c.isBase) return { rateE8: RATE_SCALE, effectiveAt: null as Date | null };
      const r = await this.pricing.latestRate(c.code, at);
      if (!r) throw ValidationFailedError.field(field, `No exchange rate is known for ${c.code}.`);
      return r;
    };
    const [rf, rt] = await Promise.all([rateOf(from, 'from'), rateOf(to, 'to')]);
    // In the source currency's decimals: 10.5 yen is a 422, never silently 11.
    const minorFrom = amountToMinor(amount, from.decimals, 'amount');
    // to_minor = from_minor x 10^(dt - df) x rate_to / rate_from, in integers, rounded once.
    const num = BigInt(minorFrom) * BigInt(rt.rateE8) * 10n ** BigInt(to.decimals);
    const den = BigInt(rf.rateE8) * 10n ** BigInt(from.decimals);
    const minorTo = Number(roundHalfAwayFromZero(num, den));
    if (!Number.isSafeInteger(minorTo)) throw ValidationFailedError.field('amount', 'The converted amount is too large.');
    return {
      amount: fromMinor(minorFrom, from.decimals),
      from: from.code,
      to: to.code,
      rate: Number(roundHalfAwayFromZero(BigInt(rt.rateE8) * 100_000_000n, BigInt(rf.rateE8))) / RATE_SCALE,
      converted: fromMinor(minorTo, to.decimals),
      decimals: to.decimals,
      rate_effective_at: (rt.effectiveAt ?? rf.effectiveAt)?.toISOString() ?? null,
    };
  }

  @Transactional()
  async setRate(code: string, rate: number, effectiveAt?: Date) {
    const c = await this.reference.currency(code.toUpperCase());
    if (!c) throw new NotFoundError('Currency');
    if (c.isBase) throw ValidationFailedError.field('rate', 'The base currency has no exchange rate.');
    const rateE8 = toMinor(rate, 8);
    if (rateE8 <= 0) throw ValidationFailedError.field('rate', 'The rate must be positive.');
    const now = this.clock.now();
    const before = await this.pricing.latestRate(c.code, now);
    await this.pricing.addRate(c.code, rateE8, effectiveAt ?? now, now);
    const result = { currency: c.code, rate, effective_at: (effectiveAt ?? now).toISOString() };
    await this.audit.record({
      action: 'exchange_rate.set',
      target: { type: 'currency', id: c.code },
      before: before ? { rate_e8: before.rateE8 } : null,
      after: result,
    });
    return result;
  }
}
