import { Injectable } from '@nestjs/common';
import { fromMinor, ValidationFailedError } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { PricedCartResult, PricingService } from '@pos/pricing';
import { SaleErrors } from '../domain/sale.errors';
import { CheckoutDiscounts } from './checkout-discounts';
import { CheckoutLines } from './checkout-lines';
import { CheckoutOfflinePrices, OfflinePriceCheck } from './checkout-offline-prices';
import { CheckoutPayments } from './checkout-payments';
import { CheckoutInput, PreparedSale } from './checkout.types';

/** What the checks are for: a quote (validate: nothing written) or a sale about to be written. */
export interface Preparing {
  stage: 'quote' | 'commit';
  /** An offline terminal's upload: its prices are kept (price source offline), its discounts flagged, not refused. */
  offline: boolean;
}

/** A prepared sale, with the judgement of an offline terminal's prices (null online). */
export interface CheckedSale extends PreparedSale {
  offlinePrices: OfflinePriceCheck | null;
}

/**
 * Checkout step: every check that does not write, in the contract's order. The body is valid by
 * now. Priced through the engine, the tenders must be there (a missing field is a 422), discounts
 * beyond the cashier's limits need an approval (403), then the checks of the cart as priced
 * (lines, units, serials, warehouses, total, tenders) are the contract's 400 "checkout validation
 * error" (`asCartRules`), while a missing field or an unknown id stays a 422.
 */
@Injectable()
export class CheckoutPreparation {
  constructor(
    private readonly stores: StoreContext,
    private readonly pricing: PricingService,
    private readonly discounts: CheckoutDiscounts,
    private readonly lines: CheckoutLines,
    private readonly payments: CheckoutPayments,
    private readonly customers: CustomerService,
    private readonly offlinePrices: CheckoutOfflinePrices,
  ) {}

  /**
   * A quote prices a cart without tenders too (balance due = total) and checks the stock; a commit
   * leaves the stock to the ledger's guarded UPDATE. Offline, an upload's prices are judged against
   * the server's then (never refused: flagged for review beyond the cashier's limits).
   */
  async prepare(principal: Principal, input: CheckoutInput, how: Preparing): Promise<CheckedSale> {
    const store = await this.stores.resolve(principal, input.storeId);
    const priced = await this.price(principal, store.id, input, how.offline);
    const untendered = how.stage === 'quote' && !this.payments.hasTenders(input);
    if (!untendered && priced.cart.total > 0) this.payments.requireTenders(input);
    const { approvals, cartApproval, unapproved } = this.discounts.approve(principal, input, priced, how.offline);
    const profile = input.customerId === undefined ? null : await this.customers.pricingProfile(input.customerId);
    // Credit goes to a named customer: none, or the walk-in customer of anonymous sales, is nobody to collect from.
    const creditCustomer = profile !== null && !profile.isWalkIn;
    const { warehouses, settled } = await asCartRules(async () => {
      // Line problems (warehouse, serial, units) first: a wrong total is often their consequence.
      const checkStock = how.stage === 'quote' && !store.allowNegativeStock && !how.offline;
      const warehouses = await this.lines.check(store, input, priced, checkStock);
      if (input.totalAmount !== undefined) assertTotal(input.totalAmount, priced);
      const settled = untendered
        ? { tenders: [], change: 0, paid: 0, onAccount: priced.cart.total }
        : await this.payments.settle(store, input, priced, creditCustomer);
      return { warehouses, settled };
    });
    const offlinePrices = how.offline ? await this.offlinePrices.judge(principal, input, priced, unapproved) : null;
    return {
      store,
      priced,
      warehouses,
      approvals,
      cartApproval,
      unapproved,
      ...settled,
      paymentTermsDays: profile?.paymentTermsDays ?? 30,
      offlinePrices,
    };
  }

  /** The engine's price of the cart; offline, a price the terminal charged is kept as such (source `offline`). */
  private price(principal: Principal, storeId: number, input: CheckoutInput, offline: boolean): Promise<PricedCartResult> {
    return this.pricing.price(principal, {
      storeId,
      customerId: input.customerId,
      taxExempt: input.taxExempt,
      taxExemptReason: input.taxExemptReason,
      cartDiscount: input.cartDiscount,
      at: offline ? input.offlineCreatedAt : undefined,
      lines: input.items.map((l) => ({
        itemId: l.itemId,
        quantity: l.qty,
        unitId: l.unitId,
        price: l.price,
        priceSource: offline && l.price !== undefined ? ('offline' as const) : undefined,
        discount: l.discount,
      })),
    });
  }
}

function assertTotal(client: number, priced: PricedCartResult): void {
  const server = priced.cart.total;
  if (client === server) return;
  const m = (v: number) => fromMinor(v, priced.decimals);
  throw SaleErrors.totalMismatch(m(client), m(server));
}

/** Field problems of a well-formed cart become the contract's 400 "checkout validation error" (errors by field). */
async function asCartRules<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ValidationFailedError) throw SaleErrors.checkoutInvalid(e.fields);
    throw e;
  }
}
