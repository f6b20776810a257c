import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { BadRequestError, Clock, ConflictError, ForbiddenError, fromMinor, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, Principal } from '@pos/identity';
import { ItemRepository, levelCrossing, PaymentMethodRecord, StockRepository, StoreRecord, StoreRepository } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { ChangeLog, isRetryableTransactionError } from '@pos/platform';
import { DiscountApprovalService, Discount, PricedCartResult, PricingService, withinLimits } from '@pos/pricing';
import { SessionService } from '@pos/sessions';
import { settle, TenderType } from '../domain/payments';
import { IdempotencyRepository, SaleRepository } from './sale.ports';
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

interface Prepared {
  store: StoreRecord;
  priced: PricedCartResult;
  warehouses: number[];
  approvals: (number | null)[];
  cartApproval: number | null;
  tenders: { method: PaymentMethodRecord; amount: number; applied: number; tendered: number | null; change: number; reference: string | null }[];
  change: number;
  paid: number;
  onAccount: number;
  paymentTermsDays: number;
}

const IN_FLIGHT_STALE_MS = 60_000;

/**
 * POST /pos/checkout: validate, price through the engine, check discount limits (or a manager's
 * approval token), settle the payments, take the stock, number the receipt, write the sale, its
 * invoice and its events, all in one transaction. Exactly once per idempotency key:
 * the key is claimed first (a unique row), the sale carries the key under a unique index too,
 * and the stored response is replayed for the same body (422 for another body, 409 while the
 * first is still running). Deadlocks are retried, the whole transaction at once.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly sales: SaleRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly pricing: PricingService,
    private readonly approvals: DiscountApprovalService,
    private readonly sessions: SessionService,
    private readonly stores: StoreRepository,
    private readonly items: ItemRepository,
    private readonly stock: StockRepository,
    private readonly customers: CustomerService,
    private readonly changes: ChangeLog,
    private readonly views: SaleViews,
    private readonly clock: Clock,
  ) {}

  /** POST /pos/checkout/validate: every check, the priced cart, nothing written. */
  async validate(principal: Principal, input: CheckoutInput) {
    const p = await this.prepare(principal, input, false);
    const sessionOk = await this.sessions.status(principal, input.storeId);
    return {
      valid: true,
      can_sell: sessionOk.can_sell,
      session_id: sessionOk.session?.id ?? null,
      ...this.views.pricedCart(p.priced),
      payments: p.tenders.map((t) => ({
        payment_method_code: t.method.code,
        amount: fromMinor(t.amount),
        applied: fromMinor(t.applied),
        change: fromMinor(t.change),
      })),
      change: fromMinor(p.change),
      balance_due: fromMinor(p.onAccount),
    };
  }

  async checkout(principal: Principal, input: CheckoutInput, fingerprint: string): Promise<CheckoutOutcome> {
    assertStoreAccess(principal, input.storeId);
    const now = this.clock.now();
    const existing = await this.txHost.withTransaction(() =>
      this.idempotency.claim({
        key: input.idempotencyKey,
        scope: 'checkout',
        fingerprint,
        status: 'in_flight',
        responseStatus: null,
        responseBody: null,
        userId: principal.userId,
        createdAt: now,
        completedAt: null,
      }),
    );
    if (existing) {
      if (existing.fingerprint !== fingerprint || existing.scope !== 'checkout') {
        throw ValidationFailedError.field('idempotency_key', 'This idempotency key was already used for a different request.');
      }
      if (existing.status === 'completed')
        return { replayed: true, status: existing.responseStatus ?? 201, body: JSON.parse(existing.responseBody ?? 'null') as unknown };
      const stale = new Date(now.getTime() - IN_FLIGHT_STALE_MS);
      if (!(await this.txHost.withTransaction(() => this.idempotency.takeOver(input.idempotencyKey, stale, now)))) {
        throw new ConflictError('idempotency_in_flight', 'A request with this idempotency key is still being processed; retry shortly.', 1);
      }
    }
    try {
      const body = await this.withDeadlockRetry(() => this.txHost.withTransaction(() => this.commit(principal, input)));
      return { replayed: false, status: 201, body };
    } catch (error) {
      // Nothing was written: free the key so the client can correct the request and retry it.
      await this.txHost.withTransaction(() => this.idempotency.release(input.idempotencyKey)).catch(() => undefined);
      throw error;
    }
  }

  private async withDeadlockRetry<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= 6 || !isRetryableTransactionError(error)) throw error;
        await new Promise((r) => setTimeout(r, 25 * 2 ** attempt + Math.floor(Math.random() * 50)));
      }
    }
  }

  private async commit(principal: Principal, input: CheckoutInput): Promise<unknown> {
    const session = await this.sessions.requireOpen(principal, input.storeId);
    const p = await this.prepare(principal, input, true);
    const now = this.clock.now();
    const number = await this.sales.nextReceiptNumber(p.store.id);
    const cart = p.priced.cart;
    const uniqueWarehouses = [...new Set(p.warehouses)];
    const sale = await this.sales.insertSale({
      storeId: p.store.id,
      warehouseId: uniqueWarehouses.length === 1 ? uniqueWarehouses[0] : null,
      sessionId: session.id,
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
      offlineCreatedAt: input.offlineCreatedAt ?? null,
      voidedAt: null,
      voidedBy: null,
      voidReason: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.sales.insertItems(
      cart.lines.map((l, i) => {
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
      }),
    );
    await this.sales.insertPayments(
      p.tenders.map((t) => ({
        saleId: sale.id,
        paymentMethodId: t.method.id,
        methodCode: t.method.code,
        methodType: t.method.type,
        amount: t.applied,
        tendered: t.tendered,
        changeAmount: t.change,
        reference: t.reference,
        createdAt: now,
      })),
    );
    await this.takeStock(principal, p, input, sale.id, now);
    const dueAt = new Date(now.getTime() + p.paymentTermsDays * 86_400_000);
    await this.sales.insertInvoice({
      saleId: sale.id,
      storeId: p.store.id,
      customerId: input.customerId ?? null,
      number: `INV-${p.store.code}-${String(number).padStart(6, '0')}`,
      status: p.onAccount > 0 ? 'issued' : 'paid',
      issuedAt: now,
      dueAt,
      amount: cart.total,
      paid: cart.total - p.onAccount,
      balance: p.onAccount,
      createdAt: now,
      updatedAt: now,
    });
    const detail = await this.views.detail(sale.id);
    await this.changes.event('sale.completed', { sale: detail }, p.store.id);
    await this.idempotency.complete(input.idempotencyKey, 201, JSON.stringify(detail), now);
    return detail;
  }

  private async takeStock(principal: Principal, p: Prepared, input: CheckoutInput, saleId: number, now: Date): Promise<void> {
    const allowNegative = p.store.allowNegativeStock || input.offlineCreatedAt !== undefined;
    // Rows are locked in one fixed order (warehouse, item) so two carts never wait on each other crosswise.
    const order = p.priced.cart.lines.map((l, i) => ({ l, i })).sort((a, b) => p.warehouses[a.i] - p.warehouses[b.i] || a.l.itemId - b.l.itemId || a.i - b.i);
    for (const { l, i } of order) {
      const item = p.priced.items.get(l.itemId)!;
      const factor = p.priced.units[i]?.factor ?? 1;
      const warehouseId = p.warehouses[i];
      const moved = await this.stock.move(
        {
          itemId: item.id,
          warehouseId,
          type: 'sale',
          delta: -l.quantity * factor,
          unitCost: item.cost,
          referenceType: 'sale',
          referenceId: String(saleId),
          userId: principal.userId,
          notes: null,
        },
        allowNegative ? null : 0,
        now,
      );
      if (!moved) throw new ConflictError('insufficient_stock', `Not enough stock of ${item.sku} (${item.name}) for items.${i}.`);
      const serial = input.items[i].serialNumber;
      if (item.isSerialTracked && serial) {
        const [row] = await this.stock.serials(item.id, { warehouseId, status: 'in_stock', serials: [serial] });
        if (!row) throw ValidationFailedError.field(`items.${i}.serial_number`, 'The serial number is not in stock in this warehouse.');
        await this.stock.updateSerials([row.id], { status: 'sold', saleId }, now);
      }
      const level = moved.reorderLevel ?? item.reorderLevel;
      const crossing = levelCrossing(moved.before, moved.after, level);
      if (crossing)
        await this.changes.event(
          `inventory.${crossing}`,
          { item_id: item.id, sku: item.sku, name: item.name, warehouse_id: warehouseId, quantity: moved.after, reorder_level: level },
          p.store.id,
        );
    }
  }

  /** Every check that does not write. `forCommit` skips the stock pre-check (the UPDATE guards it). */
  private async prepare(principal: Principal, input: CheckoutInput, forCommit: boolean): Promise<Prepared> {
    assertStoreAccess(principal, input.storeId);
    const store = await this.stores.findStore(input.storeId);
    if (!store) throw ValidationFailedError.field('store_id', 'The selected store does not exist.');
    if (input.taxExempt && input.customerId === undefined && !input.taxExemptReason) {
      throw ValidationFailedError.field('tax_exempt_reason', 'A tax-exempt sale needs a customer_id or a tax_exempt_reason.');
    }
    const priced = await this.pricing.price(principal, {
      storeId: store.id,
      customerId: input.customerId,
      taxExempt: input.taxExempt,
      cartDiscount: input.cartDiscount,
      at: input.offlineCreatedAt,
      lines: input.items.map((l) => ({ itemId: l.itemId, quantity: l.qty, unitId: l.unitId, price: l.price, discount: l.discount })),
    });
    const { approvals, cartApproval } = this.checkDiscounts(principal, input, priced);

    // Line problems (warehouse, serial, units) first: a wrong total is often their consequence.
    const warehouses = await this.lineWarehouses(store, input, priced, forCommit);
    const client = input.totalAmount;
    if (client !== priced.cart.total) {
      throw new BadRequestError('total_mismatch', `The total_amount ${fromMinor(client)} does not match the server total ${fromMinor(priced.cart.total)}.`, {
        client_total: fromMinor(client),
        server_total: fromMinor(priced.cart.total),
      });
    }

    const { tenders, change, paid, onAccount } = await this.settlePayments(store, input, priced.cart.total);
    let paymentTermsDays = 30;
    if (input.customerId !== undefined) paymentTermsDays = (await this.customers.show(input.customerId)).payment_terms_days;
    return { store, priced, warehouses, approvals, cartApproval, tenders, change, paid, onAccount, paymentTermsDays };
  }

  /**
   * A cashier's manual discounts (line discounts and prices typed below the server's) must stay
   * within their limits, else carry a valid approval token for exactly that discount (403).
   */
  private checkDiscounts(principal: Principal, input: CheckoutInput, priced: PricedCartResult): { approvals: (number | null)[]; cartApproval: number | null } {
    const limits = principal.discountLimits;
    const approvals = priced.cart.lines.map((l, i) => {
      const r = input.items[i];
      const server = priced.serverUnitPrices[i] * l.quantity;
      const override = Math.max(0, server - l.unitPrice * l.quantity);
      const amount = l.manualDiscount + override;
      if (amount <= 0) return null;
      // A percent discount is judged by the percent asked for, not by its rounded effect
      // (10% of 3.49 is 0.35, which is 10.03%).
      const percentBp = r.discount?.type === 'percent' && override === 0 ? r.discount.valueBp : server > 0 ? Math.round((amount * 10000) / server) : 10000;
      if (withinLimits(limits, { percentBp, amount })) return null;
      const discount: Discount = r.discount && override === 0 ? r.discount : { type: 'amount', value: amount };
      const approver = r.discountApprovalToken
        ? this.approvals.verify(r.discountApprovalToken, principal, {
            storeId: input.storeId,
            target: { itemId: l.itemId },
            discount,
            cartReference: input.idempotencyKey,
          })
        : null;
      if (approver === null) {
        throw new ForbiddenError(
          `The discount on items.${i} (${fromMinor(amount)}, ${percentBp / 100}%) is beyond your limit; a manager's approval token is required.`,
          'discount_requires_approval',
        );
      }
      return approver;
    });
    const cartAmount = priced.cart.lines.reduce((a, l) => a + l.cartDiscount, 0);
    if (cartAmount <= 0 || !input.cartDiscount) return { approvals, cartApproval: null };
    const base = priced.cart.lines.reduce((a, l) => a + l.net + l.cartDiscount, 0);
    const percentBp = input.cartDiscount.type === 'percent' ? input.cartDiscount.valueBp : base > 0 ? Math.round((cartAmount * 10000) / base) : 10000;
    if (withinLimits(limits, { percentBp, amount: cartAmount })) return { approvals, cartApproval: null };
    const approver = input.cartDiscountApprovalToken
      ? this.approvals.verify(input.cartDiscountApprovalToken, principal, {
          storeId: input.storeId,
          target: 'cart',
          discount: input.cartDiscount,
          cartReference: input.idempotencyKey,
        })
      : null;
    if (approver === null)
      throw new ForbiddenError(
        `The cart discount (${fromMinor(cartAmount)}, ${percentBp / 100}%) is beyond your limit; a manager's approval token is required.`,
        'discount_requires_approval',
      );
    return { approvals, cartApproval: approver };
  }

  private async lineWarehouses(store: StoreRecord, input: CheckoutInput, priced: PricedCartResult, forCommit: boolean): Promise<number[]> {
    const errors: Record<string, string[]> = {};
    const serves = new Map<number, number[]>();
    const warehouses: number[] = [];
    for (const [i, r] of input.items.entries()) {
      const wh = r.warehouseId ?? store.defaultWarehouseId;
      if (wh === null) {
        errors[`items.${i}.warehouse_id`] = ['The store has no default warehouse; give warehouse_id.'];
        warehouses.push(0);
        continue;
      }
      if (!serves.has(wh)) serves.set(wh, await this.stores.storesOfWarehouse(wh));
      if (!serves.get(wh)!.includes(store.id)) errors[`items.${i}.warehouse_id`] = ['The selected warehouse does not serve this store.'];
      warehouses.push(wh);
      const item = priced.items.get(r.itemId)!;
      const factor = priced.units[i]?.factor ?? 1;
      if (r.baseQuantity !== undefined && r.baseQuantity !== r.qty * factor)
        errors[`items.${i}.base_quantity`] = [`The base_quantity must be qty x unit factor (${r.qty * factor}).`];
      if (item.isSerialTracked) {
        if (!r.serialNumber) errors[`items.${i}.serial_number`] = ['A serial number is required for this item.'];
        else if ((priced.units[i]?.factor ?? 1) * r.qty !== 1) errors[`items.${i}.qty`] = ['A serial-tracked item is sold one unit per line.'];
        else if (!(await this.stock.serials(item.id, { warehouseId: wh, status: 'in_stock', serials: [r.serialNumber] })).length)
          errors[`items.${i}.serial_number`] = ['The serial number is not in stock in this warehouse.'];
      }
    }
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    if (!forCommit && !store.allowNegativeStock && input.offlineCreatedAt === undefined) {
      const need = new Map<string, number>();
      priced.cart.lines.forEach((l, i) =>
        need.set(`${l.itemId}:${warehouses[i]}`, (need.get(`${l.itemId}:${warehouses[i]}`) ?? 0) + l.quantity * (priced.units[i]?.factor ?? 1)),
      );
      for (const [key, qty] of need) {
        const [itemId, wh] = key.split(':').map(Number);
        const onHand = (await this.stock.levels([itemId], [wh]))[0]?.quantity ?? 0;
        if (onHand < qty)
          throw new ConflictError('insufficient_stock', `Not enough stock of ${priced.items.get(itemId)!.sku}: ${onHand} on hand, ${qty} needed.`);
      }
    }
    return warehouses;
  }

  private async settlePayments(store: StoreRecord, input: CheckoutInput, total: number) {
    const methods = (await this.stores.paymentMethodsByStore([store.id])).get(store.id) ?? [];
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
    );
    for (const problem of s.problems)
      (errors[problem.index === null ? 'payments' : `payments.${problem.index}.amount`] ??= []).push(
        problem.message.replace(/\((\d+)\)/g, (_, v: string) => `(${fromMinor(Number(v))})`),
      );
    if (s.onAccount > 0 && input.customerId === undefined) errors.customer_id = ['An on-account payment needs a customer.'];
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    let changeLeft = s.change;
    const tenders = payments.map((p, i) => {
      const change = resolved[i]!.type === 'cash' ? Math.min(changeLeft, p.amount) : 0;
      changeLeft -= change;
      return {
        method: resolved[i]!,
        amount: p.amount,
        applied: s.applied[i],
        tendered: p.tendered ?? (resolved[i]!.type === 'cash' ? p.amount : null),
        change,
        reference: p.reference ?? null,
      };
    });
    return { tenders, change: s.change, paid: s.paid, onAccount: s.onAccount };
  }
}
