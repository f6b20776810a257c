import { Injectable } from '@nestjs/common';
import { Clock, fromMinor, minorToString, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, Principal } from '@pos/identity';
import { PaymentMethodRecord, StockLedger, StockLine, StoreContext, StoreRecord } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { AuditLog, ChangeLog, DomainEvents, IdempotentRequests, Metrics } from '@pos/platform';
import { Discount, DiscountApprovalService, discountsBeyondLimits, PricedCartResult, PricingService } from '@pos/pricing';
import { SessionService } from '@pos/sessions';
import { settle, TenderType } from '../domain/payments';
import { SaleErrors } from '../domain/sale.errors';
import { SaleCompleted, SaleRecordedFacts } from './sale.events';
import { InvoiceRecord, SaleItemRecord, SalePaymentRecord, SaleRecord, SaleRepository } from './sale.ports';
import { SaleViews } from './sale.views';

export interface CheckoutLineInput {
  itemId: number;
  qty: number;
  unitId?: number;
  warehouseId?: number;
  serialNumber?: string;
  price?: number;
  discount?: Discount;
  discountReason?: string;
  discountApprovalToken?: string;
  baseQuantity?: number;
}

export interface CheckoutPaymentInput {
  code?: string;
  methodId?: number;
  amount: number;
  tendered?: number;
  reference?: string;
}

/** A checkout with every amount in minor units of the store's currency. */
export interface CheckoutInput {
  storeId: number;
  idempotencyKey: string;
  totalAmount: number;
  items: CheckoutLineInput[];
  payments: CheckoutPaymentInput[];
  legacyPaymentMethod?: string;
  legacyPaymentMethodId?: number;
  customerId?: number;
  reference?: string;
  cartDiscount?: Discount;
  cartDiscountReason?: string;
  cartDiscountApprovalToken?: string;
  taxExempt?: boolean;
  taxExemptReason?: string;
  offlineCreatedAt?: Date;
}

export type CheckoutOutcome = { replayed: boolean; status: number; body: unknown };

/** When an offline terminal made the sale and when it reached the server. */
export interface OfflineSaleTimes {
  createdAt: Date;
  syncedAt: Date;
}

/** How a sale reaches checkout: rung up at a till now, or uploaded by a terminal that sold offline. */
type CheckoutMode = { kind: 'online' } | ({ kind: 'offline' } & OfflineSaleTimes);

/** Idempotency scopes: a key used for one kind of sale is "a different request" for the other. */
const SCOPES = { online: 'checkout', offline: 'offline_sale' } as const;

interface Tender {
  method: PaymentMethodRecord;
  amount: number;
  applied: number;
  tendered: number | null;
  change: number;
  reference: string | null;
}

/** Everything a checkout decided before writing anything. */
interface PreparedSale {
  store: StoreRecord;
  priced: PricedCartResult;
  warehouses: number[];
  approvals: (number | null)[];
  cartApproval: number | null;
  tenders: Tender[];
  change: number;
  paid: number;
  onAccount: number;
  paymentTermsDays: number;
}

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
    private readonly sales: SaleRepository,
    private readonly idempotency: IdempotentRequests,
    private readonly pricing: PricingService,
    private readonly approvals: DiscountApprovalService,
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
  ) {}

  /** POST /pos/checkout/validate: every check, the priced cart, nothing written. */
  async validate(principal: Principal, input: CheckoutInput) {
    const p = await this.prepare(principal, input, false);
    const sessionOk = await this.sessions.status(principal, input.storeId);
    const m = (v: number) => fromMinor(v, p.priced.decimals);
    return {
      valid: true,
      can_sell: sessionOk.can_sell,
      session_id: sessionOk.session?.id ?? null,
      ...this.views.pricedCart(p.priced),
      payments: p.tenders.map((t) => ({ payment_method_code: t.method.code, amount: m(t.amount), applied: m(t.applied), change: m(t.change) })),
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
    if (!outcome.replayed && recorded.sale) this.metrics.saleRecorded(mode.kind, recorded.sale.currency, recorded.sale.total, recorded.sale.decimals);
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
    // Whole seconds (MySQL's DATETIME keeps no fraction): the records in memory are then exactly
    // what a later read returns, and the response is built from them without reading them back.
    const now = wholeSeconds(this.clock.now());
    const times =
      mode.kind === 'online' ? { createdAt: now, syncedAt: null } : { createdAt: wholeSeconds(mode.createdAt), syncedAt: wholeSeconds(mode.syncedAt) };
    const { sale, items, payments, invoice } = await this.recordSale(principal, input, p, session?.id ?? null, now, times);
    await this.takeStock(principal, p, input, sale.id);
    await this.auditManualPricing(sale, items, p);
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
   * Every check that does not write. `forCommit` skips the stock pre-check (the ledger's UPDATE
   * guards it); `offline` keeps the prices the terminal charged (price source offline).
   */
  private async prepare(principal: Principal, input: CheckoutInput, forCommit: boolean, offline = false): Promise<PreparedSale> {
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
    const { approvals, cartApproval } = this.approveDiscounts(principal, input, priced, offline);
    // Line problems (warehouse, serial, units) first: a wrong total is often their consequence.
    const warehouses = await this.lineWarehouses(store, input, priced);
    await this.ledger.checkSale(this.stockLines(input, priced, warehouses), {
      items: priced.items,
      checkStock: !forCommit && !store.allowNegativeStock && input.offlineCreatedAt === undefined,
    });
    this.assertTotal(input.totalAmount, priced);
    const settled = await this.settlePayments(store, input, priced);
    const profile = input.customerId === undefined ? null : await this.customers.pricingProfile(input.customerId);
    return { store, priced, warehouses, approvals, cartApproval, ...settled, paymentTermsDays: profile?.paymentTermsDays ?? 30 };
  }

  /**
   * A cashier's manual discounts (line discounts and prices typed below the server's) must stay
   * within their limits (the pricing policy), else carry a valid approval token for exactly that
   * discount on exactly this cart: 403 without one. An offline terminal's price is the price list
   * it had, not a discount: only its explicit discounts are judged.
   */
  private approveDiscounts(
    principal: Principal,
    input: CheckoutInput,
    priced: PricedCartResult,
    offline = false,
  ): { approvals: (number | null)[]; cartApproval: number | null } {
    const m = (v: number) => fromMinor(v, priced.decimals);
    const beyond = discountsBeyondLimits(
      priced.cart.lines.map((l, i) => ({
        ...l,
        serverUnitPrice: offline && l.priceSource === 'offline' ? l.unitPrice : priced.serverUnitPrices[i],
        requested: input.items[i].discount,
      })),
      input.cartDiscount,
      principal.discountLimits,
    );
    const approvals = beyond.lines.map((need, i) => {
      if (!need) return null;
      const token = input.items[i].discountApprovalToken;
      const scope = { storeId: input.storeId, target: { itemId: priced.cart.lines[i].itemId }, discount: need.discount, cartReference: input.idempotencyKey };
      const approver = token ? this.approvals.verify(token, principal, scope) : null;
      if (approver === null) {
        throw SaleErrors.discountRequiresApproval(`discount on items.${i}`, m(need.amount), need.percentBp);
      }
      return approver;
    });
    if (!beyond.cart) return { approvals, cartApproval: null };
    const token = input.cartDiscountApprovalToken;
    const scope = { storeId: input.storeId, target: 'cart' as const, discount: beyond.cart.discount, cartReference: input.idempotencyKey };
    const cartApproval = token ? this.approvals.verify(token, principal, scope) : null;
    if (cartApproval === null) {
      throw SaleErrors.discountRequiresApproval('cart discount', m(beyond.cart.amount), beyond.cart.percentBp);
    }
    return { approvals, cartApproval };
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

  /** The tenders against the total (the settlement rules are the domain's `settle`). */
  private async settlePayments(store: StoreRecord, input: CheckoutInput, priced: PricedCartResult) {
    const total = priced.cart.total;
    const methods = await this.stores.paymentMethods(store.id);
    let payments = input.payments;
    if (!payments.length) {
      if (!input.legacyPaymentMethod && input.legacyPaymentMethodId === undefined)
        throw ValidationFailedError.field('payments', 'The payments field is required.');
      payments = [{ code: input.legacyPaymentMethod, methodId: input.legacyPaymentMethodId, amount: total }];
    }
    const errors: Record<string, string[]> = {};
    const resolved = payments.map((p, i) => {
      const method = methods.find((m) => (p.code !== undefined ? m.code === p.code : m.id === p.methodId));
      if (!method) errors[`payments.${i}.payment_method_code`] = ['The selected payment method is not available in this store.'];
      return method;
    });
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    const tenderType = (m: PaymentMethodRecord): TenderType => (['cash', 'card', 'on_account'].includes(m.type) ? (m.type as TenderType) : 'other');
    const s = settle(
      total,
      payments.map((p, i) => ({ type: tenderType(resolved[i]!), amount: p.amount })),
      (v) => minorToString(v, priced.decimals),
    );
    for (const problem of s.problems) (errors[problem.index === null ? 'payments' : `payments.${problem.index}.amount`] ??= []).push(problem.message);
    if (s.onAccount > 0 && input.customerId === undefined) errors.customer_id = ['An on-account payment needs a customer.'];
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    const tenders: Tender[] = payments.map((p, i) => ({
      method: resolved[i]!,
      amount: p.amount,
      applied: s.applied[i],
      tendered: p.tendered ?? (resolved[i]!.type === 'cash' ? p.amount : null),
      change: s.changeGiven[i],
      reference: p.reference ?? null,
    }));
    return { tenders, change: s.change, paid: s.paid, onAccount: s.onAccount };
  }

  /** The receipt number, the sale, its lines and payments, and its invoice. */
  private async recordSale(
    principal: Principal,
    input: CheckoutInput,
    p: PreparedSale,
    sessionId: number | null,
    now: Date,
    times: { createdAt: Date; syncedAt: Date | null },
  ): Promise<{ sale: SaleRecord; items: SaleItemRecord[]; payments: SalePaymentRecord[]; invoice: InvoiceRecord }> {
    const at = times.createdAt;
    const number = await this.sales.nextReceiptNumber(p.store.id);
    const cart = p.priced.cart;
    const uniqueWarehouses = [...new Set(p.warehouses)];
    const sale = await this.sales.insertSale({
      storeId: p.store.id,
      warehouseId: uniqueWarehouses.length === 1 ? uniqueWarehouses[0] : null,
      sessionId,
      userId: principal.userId,
      customerId: input.customerId ?? null,
      receiptNumber: `${p.store.code}-${String(number).padStart(6, '0')}`,
      status: 'completed',
      subtotal: cart.subtotal,
      discountTotal: cart.discountTotal,
      taxTotal: cart.taxTotal,
      totalAmount: cart.total,
      paidAmount: p.paid,
      changeAmount: p.change,
      balanceDue: p.onAccount,
      currencyCode: p.store.currencyCode,
      reference: input.reference ?? null,
      idempotencyKey: input.idempotencyKey,
      taxExempt: p.priced.taxExempt,
      taxExemptReason: input.taxExemptReason ?? null,
      offlineCreatedAt: input.offlineCreatedAt ? wholeSeconds(input.offlineCreatedAt) : null,
      syncedAt: times.syncedAt,
      voidedAt: null,
      voidedBy: null,
      voidReason: null,
      createdAt: at,
      updatedAt: now,
    });
    const items = cart.lines.map((l, i): Omit<SaleItemRecord, 'id'> => {
      const item = p.priced.items.get(l.itemId)!;
      const unit = p.priced.units[i];
      const r = input.items[i];
      return {
        saleId: sale.id,
        lineNo: i,
        itemId: l.itemId,
        sku: item.sku,
        name: item.name,
        unitId: unit?.id ?? null,
        unitName: unit?.name ?? null,
        factor: unit?.factor ?? 1,
        quantity: l.quantity,
        baseQuantity: l.quantity * (unit?.factor ?? 1),
        basePrice: l.basePrice,
        unitPrice: l.unitPrice,
        unitCost: item.cost * (unit?.factor ?? 1),
        priceSource: l.priceSource,
        gross: l.gross,
        ruleDiscount: l.ruleDiscount,
        bundleDiscount: l.bundleDiscount,
        manualDiscount: l.manualDiscount,
        cartDiscount: l.cartDiscount,
        discountReason: r.discountReason ?? (l.cartDiscount > 0 ? (input.cartDiscountReason ?? null) : null),
        discountApprovedBy: p.approvals[i] ?? (l.cartDiscount > 0 ? p.cartApproval : null),
        net: l.net,
        taxRateBp: l.taxRateBp,
        tax: l.tax,
        total: l.total,
        warehouseId: p.warehouses[i],
        serialNumber: r.serialNumber ?? null,
        returnedQuantity: 0,
        steps: JSON.stringify(l.steps),
      };
    });
    const written = await this.sales.insertItems(items);
    const payments = await this.sales.insertPayments(
      p.tenders.map((t) => ({
        saleId: sale.id,
        paymentMethodId: t.method.id,
        methodCode: t.method.code,
        methodType: t.method.type,
        amount: t.applied,
        tendered: t.tendered,
        changeAmount: t.change,
        reference: t.reference,
        createdAt: at,
      })),
    );
    const invoice = await this.sales.insertInvoice({
      saleId: sale.id,
      storeId: p.store.id,
      customerId: input.customerId ?? null,
      number: `INV-${p.store.code}-${String(number).padStart(6, '0')}`,
      status: p.onAccount > 0 ? 'issued' : 'paid',
      issuedAt: at,
      dueAt: new Date(at.getTime() + p.paymentTermsDays * 86_400_000),
      amount: cart.total,
      paid: cart.total - p.onAccount,
      credited: 0,
      balance: p.onAccount,
      createdAt: at,
      updatedAt: now,
    });
    return { sale, items: written, payments, invoice };
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

const wholeSeconds = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);
