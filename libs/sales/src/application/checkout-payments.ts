import { Injectable } from '@nestjs/common';
import { minorToString, ValidationFailedError } from '@pos/kernel';
import { StoreContext, StoreRecord } from '@pos/catalog';
import { PricedCartResult } from '@pos/pricing';
import { settle } from '../domain/payments';
import { resolveTenderMethods, settlementProblems, tenderType } from '../domain/tenders';
import { CheckoutInput, SettledPayments } from './checkout.types';

/**
 * Checkout step: the tenders against the server's total: the store's payment methods, tendered
 * cash and its change, on-account needing a customer (the rules are the domain's: `settle`, and
 * tenders.ts for the methods and the problems by field). The legacy `payment_method` /
 * `payment_method_id` pay the whole total.
 */
@Injectable()
export class CheckoutPayments {
  constructor(private readonly stores: StoreContext) {}

  /** Whether the input names any tender (payments, or the legacy single method). */
  hasTenders(input: CheckoutInput): boolean {
    return input.payments.length > 0 || !!input.legacyPaymentMethod || input.legacyPaymentMethodId !== undefined;
  }

  /** A missing `payments` (and no legacy method) is a missing field: 422, before any cart rule. */
  requireTenders(input: CheckoutInput): void {
    if (!this.hasTenders(input)) throw ValidationFailedError.field('payments', 'The payments field is required.');
  }

  /** `creditCustomer`: the sale names a customer that may owe (not the walk-in customer). */
  async settle(store: StoreRecord, input: CheckoutInput, priced: PricedCartResult, creditCustomer: boolean): Promise<SettledPayments> {
    const total = priced.cart.total;
    const methods = await this.stores.paymentMethods(store.id);
    let payments = input.payments;
    // Nothing to pay (a free item, a 100% discount approved): the sale needs no tender; a legacy
    // payment_method ("pay the whole total with this") then pays nothing and records none.
    if (total === 0 && !payments.length) return { tenders: [], change: 0, paid: 0, onAccount: 0 };
    if (!payments.length) {
      this.requireTenders(input);
      payments = [{ code: input.legacyPaymentMethod, methodId: input.legacyPaymentMethodId, amount: total }];
    }
    const { methods: resolved, errors } = resolveTenderMethods(payments, methods);
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    const s = settle(
      total,
      payments.map((p, i) => ({ type: tenderType(resolved[i]!), amount: p.amount, tendered: p.tendered, change: p.change })),
      (v) => minorToString(v, priced.decimals),
    );
    const problems = settlementProblems(s, creditCustomer);
    if (Object.keys(problems).length) throw new ValidationFailedError(problems);
    return {
      tenders: payments.map((p, i) => ({
        method: resolved[i]!,
        amount: p.amount,
        applied: s.applied[i],
        tendered: s.tendered[i],
        change: s.changeGiven[i],
        reference: p.reference ?? null,
      })),
      change: s.change,
      paid: s.paid,
      onAccount: s.onAccount,
    };
  }
}
