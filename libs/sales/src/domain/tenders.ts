import { FieldErrors } from '@pos/kernel';
import { Settlement, TenderType } from './payments';

/** A store's payment method as the tender rules see it. */
export interface TenderMethod {
  id: number;
  code: string;
  /** cash, card, on_account, or any other kind the store defined. */
  type: string;
}

/** How a tender is named by the till: by code, by id, or both (then they must agree). */
export interface TenderRef {
  code?: string;
  methodId?: number;
}

/** The settlement kind of a method: the three the rules know, anything else `other` (no change, money received). */
export function tenderType(method: TenderMethod): TenderType {
  return method.type === 'cash' || method.type === 'card' || method.type === 'on_account' ? method.type : 'other';
}

/**
 * Each tender's method among the store's (undefined when it names none of them), with the
 * problems by field: a code and an id naming two different methods, or no method of the store.
 */
export function resolveTenderMethods<M extends TenderMethod>(
  tenders: readonly TenderRef[],
  methods: readonly M[],
): { methods: (M | undefined)[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const resolved = tenders.map((t, i) => {
    const byCode = t.code === undefined ? undefined : methods.find((m) => m.code === t.code);
    const byId = t.methodId === undefined ? undefined : methods.find((m) => m.id === t.methodId);
    if (byCode && byId && byCode !== byId) errors[`payments.${i}.payment_method_id`] = ['The payment_method_id names another method than payment_method_code.'];
    const method = byCode ?? byId;
    if (!method) errors[`payments.${i}.payment_method_code`] = ['The selected payment method is not available in this store.'];
    return method;
  });
  return { methods: resolved, errors };
}

/**
 * A settlement's problems by field (`payments.<i>.<field>`, or `payments` for the whole), and an
 * on-account part without a customer: an invoice balance must be someone's.
 */
export function settlementProblems(s: Pick<Settlement, 'problems' | 'onAccount'>, hasCustomer: boolean): FieldErrors {
  const errors: FieldErrors = {};
  for (const problem of s.problems) {
    const key = problem.index === null ? 'payments' : `payments.${problem.index}.${problem.field ?? 'amount'}`;
    (errors[key] ??= []).push(problem.message);
  }
  if (s.onAccount > 0 && !hasCustomer) errors.customer_id = ['An on-account payment needs a named customer (not the walk-in customer).'];
  return errors;
}
