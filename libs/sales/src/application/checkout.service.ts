import { Injectable } from '@nestjs/common';
import { Clock, fromMinor, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, Principal } from '@pos/identity';
import { StockLedger, StockLine, StoreContext, StoreRecord } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { AuditLog, ChangeLog, DomainEvents, IdempotentRequests, Metrics } from '@pos/platform';
import { PricedCartResult, PricingService } from '@pos/pricing';
import { SessionService } from '@pos/sessions';
import { SaleErrors } from '../domain/sale.errors';
import { CheckoutDiscounts } from './checkout-discounts';
import { CheckoutOfflinePrices } from './checkout-offline-prices';
import { CheckoutPayments } from './checkout-payments';
import { CheckoutRecords, wholeSeconds } from './checkout-records';
import { CheckoutInput, CheckoutOutcome, OfflineSaleTimes, PreparedSale } from './checkout.types';
import { SaleCompleted, SaleRecordedFacts } from './sale.events';
import { SaleItemRecord, SaleRecord } from './sale.ports';
import { SaleViews } from './sale.views';

export type { CheckoutInput, CheckoutLineInput, CheckoutOutcome, CheckoutPaymentInput, OfflineSaleTimes } from './checkout.types';

/** How a sale reaches checkout: rung up at a till now, or uploaded by a terminal that sold offline. */
type CheckoutMode = { kind: 'online' } | ({ kind: 'offline' } & OfflineSaleTimes);

/** Idempotency scopes: a key used for one kind of sale is "a different request" for the other. */
const SCOPES = { online: 'checkout', offline: 'offline_sale' } as const;

/**
 * POST /pos/checkout: validate, price through the engine, check discount limits (or a manager's
 * approval token), settle the payments, take the stock, number the receipt, write the sale, its
 * invoice and its events, all in one transaction. Exactly once per idempotency key (platform's
 * IdempotentRequests: the key is recorded last in the sale transaction, the stored response is replayed
 * for the same body, 422 for another body, 409 while the first is still running); the sale carries
 * the key under a unique index too. Deadlocks are retried, the whole transaction at once.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly records: CheckoutRecords,
    private readonly discounts: CheckoutDiscounts,
    private readonly payments: CheckoutPayments,
    private readonly idempotency: IdempotentRequests,
    private readonly pricing: PricingService,
    private readonly sessions: SessionService,
    private readonly stores: StoreContext,
    private readonly ledger: StockLedger,
    private readonly customers: CustomerService,
    private readonly changes: ChangeLog,
    private readonly audit: AuditLog,
    private readonly domainEvents: DomainEvents,
    private readonly views: SaleViews,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly offlinePrices: CheckoutOfflinePrices,
  ) {}

  /**
   * POST /pos/checkout/validate: every check, the priced cart, nothing written. The total and the
   * tenders are checked when given; without tenders the cart is priced only (balance_due = total).
   */
  async validate(principal: Principal, input: CheckoutInput) {
    const p = await this.prepare(principal, input, false, false, true);
    const sessionOk = await this.sessions.status(principal, input.storeId);
    const m = (v: number) => fromMinor(v, p.priced.decimals);
    return {
      valid: true,
      can_sell: sessionOk.can_sell,
      session_id: sessionOk.session?.id ?? null,
      ...this.views.pricedCart(p.priced),
      payments: p.tenders.map((t) => ({
        payment_method_code: t.method.code,
        amount: m(t.amount),
        tendered: t.tendered === null ? null : m(t.tendered),
        applied: m(t.applied),
        change: m(t.change),
      })),
      change: m(p.change),
      balance_due: m(p.onAccount),
    };
  }

  async checkout(principal: Principal, input: CheckoutInput, fingerprint: string): Promise<CheckoutOutcome> {
    return this.run(principal, input, fingerprint, { kind: 'online' });
  }

  /**
   * A sale an offline terminal made (offline sync's upload), exactly once per idempotency key
   * like any checkout, with the offline rules: the price the terminal charged is kept (price
   * source `offline`; only explicit manual discounts are judged against the cashier's limits),
   * stock may go below zero (the goods already left), no open session is needed (the sale
   * attaches to the cashier's session that was open then, if any), created_at is when it
   * happened and synced_at when it arrived. Freshness of `createdAt` is the caller's policy.
   */
  async recordOffline(principal: Principal, input: CheckoutInput, fingerprint: string, times: OfflineSaleTimes): Promise<CheckoutOutcome> {
    return this.run(principal, { ...input, offlineCreatedAt: times.createdAt }, fingerprint, { kind: 'offline', ...times });
  }

  private async run(principal: Principal, input: CheckoutInput, fingerprint: string, mode: CheckoutMode): Promise<CheckoutOutcome> {
    assertStoreAccess(principal, input.storeId);
    const recorded: { sale?: { currency: string; total: number; decimals: number } } = {};
    const outcome = await this.idempotency.run({ scope: SCOPES[mode.kind], key: input.idempotencyKey, fingerprint, userId: principal.userId }, 201, () =>
      this.commit(principal, input, mode, recorded),
    );
    // Counted once committed (a replay or a rolled-back attempt is not a sale).
    if (!outcome.replayed && recorded.sale) this.metrics.saleRecorded(mode.kind, recorded.sale.currency, recorded.sale.total);
    return outcome;
  }

  /** The sale's transaction: session, every check, the records, the stock, the events. */
  private async commit(
    principal: Principal,
    input: CheckoutInput,
    mode: CheckoutMode,
    recorded: { sale?: { currency: string; total: number; decimals: number } },
  ): Promise<unknown> {
    const session =
      mode.kind === 'online'
        ? await this.sessions.requireOpen(principal, input.storeId)
        : await this.sessions.sessionAt(principal.userId, input.storeId, mode.createdAt);
    const p = await this.prepare(principal, input, true, mode.kind === 'offline');
    // An offline terminal's prices against the server's then: never refused, flagged for review beyond the cashier's limits.
    const offlinePrices = mode.kind === 'offline' ? await this.offlinePrices.judge(principal, input, p.priced, p.unapproved) : null;
    // Whole seconds (MySQL's DATETIME keeps no fraction): the records in memory are then exactly
    // what a later read returns, and the response is built from them without reading them back.
    const now = wholeSeconds(this.clock.now());
    const times =
      mode.kind === 'online' ? { createdAt: now, syncedAt: null } : { createdAt: wholeSeconds(mode.createdAt), syncedAt: wholeSeconds(mode.syncedAt) };
    const { sale, items, payments, invoice } = await this.records.write(principal, input, p, session?.id ?? null, now, times);
    await this.takeStock(principal, p, input, sale.id);
    await this.auditManualPricing(sale, items, p);
    await this.offlinePrices.record(sale, offlinePrices);
    const detail = await this.views.detailOf(sale, items, payments, invoice, now);
    await this.changes.event(SaleCompleted, { sale: detail }, p.store.id);
    await this.domainEvents.publish(SaleRecordedFacts, { sale, items, payments });
    recorded.sale = { currency: sale.currencyCode, total: sale.totalAmount, decimals: p.priced.decimals };
    return detail;
  }

  /** A sale with manual prices or discounts (and who approved them) leaves one audit entry. */
  private async auditManualPricing(sale: SaleRecord, items: SaleItemRecord[], p: PreparedSale): Promise<void> {
    const lines = items
      .filter((l) => l.priceSource === 'manual' || l.manualDiscount > 0 || l.cartDiscount > 0)
      .map((l) => ({
        line: l.lineNo,
        item_id: l.itemId,
        server_unit_price: p.priced.serverUnitPrices[l.lineNo],
        unit_price: l.unitPrice,
        manual_discount: l.manualDiscount,
        cart_discount: l.cartDiscount,
        reason: l.discountReason,
        approved_by: l.discountApprovedBy,
      }));
    if (!lines.length) return;
    await this.audit.record({
      action: 'sale.manual_pricing',
      target: { type: 'sale', id: sale.id },
      storeId: sale.storeId,
      after: { minor_units: true, lines },
    });
  }

  /**
   * Every check that does not write. The body is valid by now; the checks of the cart as priced
   * (lines, units, serials, warehouses, total, tenders) are the contract's 400 "checkout validation
   * error" (`asCartRules`), while a missing field or an unknown id stays a 422. `forCommit` skips the stock pre-check (the ledger's UPDATE
   * guards it); `offline` keeps the prices the terminal charged (price source offline).
   */
  private async prepare(principal: Principal, input: CheckoutInput, forCommit: boolean, offline = false, quote = false): Promise<PreparedSale> {
    const store = await this.stores.resolve(principal, input.storeId);
    const priced = await this.pricing.price(principal, {
      storeId: store.id,
      customerId: input.customerId,
      taxExempt: input.taxExempt,
      taxExemptReason: input.taxExemptReason,
      cartDiscount: input.cartDiscount,
      at: input.offlineCreatedAt,
      lines: input.items.map((l) => ({
        itemId: l.itemId,
        quantity: l.qty,
        unitId: l.unitId,
        price: l.price,
        priceSource: offline && l.price !== undefined ? ('offline' as const) : undefined,
        discount: l.discount,
      })),
    });
    const untendered = quote && !this.payments.hasTenders(input);
    if (!untendered) this.payments.requireTenders(input);
    const { approvals, cartApproval, unapproved } = this.discounts.approve(principal, input, priced, offline);
    const { warehouses, settled } = await asCartRules(async () => {
      // Line problems (warehouse, serial, units) first: a wrong total is often their consequence.
      const warehouses = await this.lineWarehouses(store, input, priced);
      await this.ledger.checkSale(this.stockLines(input, priced, warehouses), {
        items: priced.items,
        checkStock: !forCommit && !store.allowNegativeStock && input.offlineCreatedAt === undefined,
      });
      if (input.totalAmount !== undefined) this.assertTotal(input.totalAmount, priced);
      const settled = untendered ? { tenders: [], change: 0, paid: 0, onAccount: priced.cart.total } : await this.payments.settle(store, input, priced);
      return { warehouses, settled };
    });
    const profile = input.customerId === undefined ? null : await this.customers.pricingProfile(input.customerId);
    return { store, priced, warehouses, approvals, cartApproval, unapproved, ...settled, paymentTermsDays: profile?.paymentTermsDays ?? 30 };
  }

  /** Each line's warehouse (the store's default unless named; it must serve the store), units and serial rules. */
  private async lineWarehouses(store: StoreRecord, input: CheckoutInput, priced: PricedCartResult): Promise<number[]> {
    const errors: Record<string, string[]> = {};
    const serves = new Map<number, boolean>();
    const warehouses: number[] = [];
    for (const [i, r] of input.items.entries()) {
      const wh = r.warehouseId ?? store.defaultWarehouseId;
      if (wh === null) {
        errors[`items.${i}.warehouse_id`] = ['The store has no default warehouse; give warehouse_id.'];
        warehouses.push(0);
        continue;
      }
      if (!serves.has(wh)) serves.set(wh, await this.stores.serves(wh, store.id));
      if (!serves.get(wh)) errors[`items.${i}.warehouse_id`] = ['The selected warehouse does not serve this store.'];
      warehouses.push(wh);
      const item = priced.items.get(r.itemId)!;
      const factor = priced.units[i]?.factor ?? 1;
      if (r.baseQuantity !== undefined && r.baseQuantity !== r.qty * factor) {
        errors[`items.${i}.base_quantity`] = [`The base_quantity must be qty x unit factor (${r.qty * factor}).`];
      }
      if (item.isSerialTracked) {
        if (!r.serialNumber) errors[`items.${i}.serial_number`] = ['A serial number is required for this item.'];
        else if (factor * r.qty !== 1) errors[`items.${i}.qty`] = ['A serial-tracked item is sold one unit per line.'];
      }
    }
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    return warehouses;
  }

  private assertTotal(client: number, priced: PricedCartResult): void {
    const server = priced.cart.total;
    if (client === server) return;
    const m = (v: number) => fromMinor(v, priced.decimals);
    throw SaleErrors.totalMismatch(m(client), m(server));
  }

  /** The goods leave through the ledger (an offline sale may take stock below zero: they already left). */
  private async takeStock(principal: Principal, p: PreparedSale, input: CheckoutInput, saleId: number): Promise<void> {
    await this.ledger.sell(
      { type: 'sale', id: String(saleId), userId: principal.userId, storeId: p.store.id },
      this.stockLines(input, p.priced, p.warehouses),
      {
        allowNegative: p.store.allowNegativeStock || input.offlineCreatedAt !== undefined,
        items: p.priced.items,
      },
    );
  }

  private stockLines(input: CheckoutInput, priced: PricedCartResult, warehouses: number[]): StockLine[] {
    return priced.cart.lines.map((l, i) => {
      const item = priced.items.get(l.itemId)!;
      return {
        field: `items.${i}`,
        itemId: l.itemId,
        warehouseId: warehouses[i],
        quantity: l.quantity * (priced.units[i]?.factor ?? 1),
        serialNumber: item.isSerialTracked ? (input.items[i].serialNumber ?? null) : null,
        unitCost: item.cost,
      };
    });
  }
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
