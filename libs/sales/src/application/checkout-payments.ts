import { Injectable } from '@nestjs/common';
import { minorToString, ValidationFailedError } from '@pos/kernel';
import { PaymentMethodRecord, StoreContext, StoreRecord } from '@pos/catalog';
import { PricedCartResult } from '@pos/pricing';
import { settle, TenderType } from '../domain/payments';
import { CheckoutInput, SettledPayments } from './checkout.types';

const tenderType = (m: PaymentMethodRecord): TenderType => (['cash', 'card', 'on_account'].includes(m.type) ? (m.type as TenderType) : 'other');

/**
 * Checkout step: the tenders against the server's total (the settlement rules are the domain's
 * `settle`): the store's payment methods, tendered cash and its change, on-account needing a
 * customer. The legacy `payment_method` / `payment_method_id` pay the whole total.
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

  async settle(store: StoreRecord, input: CheckoutInput, priced: PricedCartResult): Promise<SettledPayments> {
    const total = priced.cart.total;
    const methods = await this.stores.paymentMethods(store.id);
    let payments = input.payments;
    if (!payments.length) {
      this.requireTenders(input);
      payments = [{ code: input.legacyPaymentMethod, methodId: input.legacyPaymentMethodId, amount: total }];
    }
    const errors: Record<string, string[]> = {};
    const resolved = payments.map((p, i) => {
      const byCode = p.code === undefined ? undefined : methods.find((m) => m.code === p.code);
      const byId = p.methodId === undefined ? undefined : methods.find((m) => m.id === p.methodId);
      if (byCode && byId && byCode !== byId)
        errors[`payments.${i}.payment_method_id`] = ['The payment_method_id names another method than payment_method_code.'];
      const method = byCode ?? byId;
      if (!method) errors[`payments.${i}.payment_method_code`] = ['The selected payment method is not available in this store.'];
      return method;
    });
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    const s = settle(
      total,
      payments.map((p, i) => ({ type: tenderType(resolved[i]!), amount: p.amount, tendered: p.tendered, change: p.change })),
      (v) => minorToString(v, priced.decimals),
    );
    for (const problem of s.problems) {
      const key = problem.index === null ? 'payments' : `payments.${problem.index}.${problem.field ?? 'amount'}`;
      (errors[key] ??= []).push(problem.message);
    }
    if (s.onAccount > 0 && input.customerId === undefined) errors.customer_id = ['An on-account payment needs a customer.'];
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
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
