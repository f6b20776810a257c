import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { amountToMinor, Clock, fromMinor, minorToString, NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, canAccessStore, Principal } from '@pos/identity';
import { ItemCatalog, StockLedger, StoreContext } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { CurrencyDecimals } from '@pos/pricing';
import { AuditLog, ChangeLog, DomainEvents, requirePort, withTransactionRetry } from '@pos/platform';
import { SaleErrors } from '../domain/sale.errors';
import { OpenReturns } from './sale-returns';
import { SaleVoided, SaleVoidedFacts } from './sale.events';
import { SaleFilter, SaleRecord, SaleRepository } from './sale.ports';
import { invoiceView, SaleViews } from './sale.views';

const WIDTH = 40;

/** Sales history, receipts and voids. Another store's sale by id is 404; its store as a filter 403. */
@Injectable()
export class SaleService implements OnModuleInit {
  private openReturns!: OpenReturns;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly sales: SaleRepository,
    private readonly views: SaleViews,
    private readonly stores: StoreContext,
    private readonly ledger: StockLedger,
    private readonly items: ItemCatalog,
    private readonly customers: CustomerService,
    private readonly currencies: CurrencyDecimals,
    private readonly changes: ChangeLog,
    private readonly audit: AuditLog,
    private readonly domainEvents: DomainEvents,
    private readonly clock: Clock,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    this.openReturns = requirePort(this.moduleRef, OpenReturns, 'SaleService', 'ReturnsModule');
  }

  async list(principal: Principal, filter: Omit<SaleFilter, 'storeIds'>, page: PageRequest) {
    if (filter.storeId !== undefined) assertStoreAccess(principal, filter.storeId);
    // A warehouse named as a filter answers as a store does (decisions.md): another store's 403, unknown 422.
    if (filter.warehouseId !== undefined) await this.stores.requireWarehouse(principal, filter.warehouseId, 'forbidden');
    // q matches a receipt number or reference here, and items (by barcode) and customers (by
    // name, email or phone) through the catalog and customers contexts.
    const q = filter.q ? { qItemIds: await this.items.itemIdsByBarcode(filter.q), qCustomerIds: await this.customers.idsMatching(filter.q) } : {};
    const result = await this.sales.list({ ...filter, ...q, storeIds: principal.stores }, page);
    const rows = await this.views.summaries(result.items);
    return new Page(rows, result.total, result.page, result.perPage);
  }

  async show(principal: Principal, id: number) {
    await this.visible(principal, id);
    return this.views.detail(id, this.clock.now());
  }

  /** All a printer needs, as JSON amounts in the sale's currency. */
  async receipt(principal: Principal, id: number) {
    const r = await this.receiptModel(principal, id);
    const m = (v: number) => fromMinor(v, r.decimals);
    return {
      store: r.store,
      receipt_number: r.receiptNumber,
      date: r.date,
      cashier_id: r.cashierId,
      customer_id: r.customerId,
      status: r.status,
      lines: r.lines.map((l) => ({ ...l, unit_price: m(l.unit_price), discount: m(l.discount), total: m(l.total) })),
      subtotal: m(r.subtotal),
      discount_total: m(r.discountTotal),
      taxes: r.taxes.map((t) => ({ rate: t.rateBp / 100, tax: m(t.tax) })),
      tax_total: m(r.taxTotal),
      total: m(r.total),
      payments: r.payments.map((p) => ({ method: p.method, amount: m(p.amount), tendered: p.tendered === null ? null : m(p.tendered), change: m(p.change) })),
      change: m(r.change),
      balance_due: m(r.balanceDue),
      prices_include_tax: r.pricesIncludeTax,
      footer: r.footer,
      currency: r.currency,
    };
  }

  /** The 40-column plain-text receipt, amounts printed from minor units with the currency's decimals. */
  async receiptText(principal: Principal, id: number): Promise<string> {
    const r = await this.receiptModel(principal, id);
    const money = (v: number) => minorToString(v, r.decimals);
    const row = (left: string, right: string) => {
      const l = left.slice(0, WIDTH - right.length - 1);
      return l + ' '.repeat(Math.max(1, WIDTH - l.length - right.length)) + right;
    };
    const center = (s: string) => ' '.repeat(Math.max(0, Math.floor((WIDTH - s.length) / 2))) + s.slice(0, WIDTH);
    const out: string[] = [];
    for (const line of (r.store.header ?? r.store.name).split('\n')) out.push(center(line));
    out.push(
      '-'.repeat(WIDTH),
      row(`Receipt ${r.receiptNumber}`, ''),
      row(r.date.slice(0, 16).replace('T', ' '), r.status === 'completed' ? '' : r.status.toUpperCase()),
      '-'.repeat(WIDTH),
    );
    for (const l of r.lines) {
      out.push(row(l.name, money(l.total)));
      out.push(`  ${l.quantity}${l.unit ? ' ' + l.unit : ''} x ${money(l.unit_price)}${l.discount ? `  -${money(l.discount)}` : ''}`);
      if (l.serial_number) out.push(`  S/N ${l.serial_number}`);
    }
    out.push('-'.repeat(WIDTH), row('Subtotal', money(r.subtotal)));
    if (r.discountTotal) out.push(row('Discounts', '-' + money(r.discountTotal)));
    for (const t of r.taxes) out.push(row(`Tax ${t.rateBp / 100}%${r.pricesIncludeTax ? ' (incl.)' : ''}`, money(t.tax)));
    out.push(row('TOTAL', `${r.currency} ${money(r.total)}`));
    for (const p of r.payments) out.push(row(p.method.toUpperCase(), money(p.tendered ?? p.amount)));
    if (r.change) out.push(row('Change', money(r.change)));
    if (r.balanceDue) out.push(row('On account', money(r.balanceDue)));
    out.push('-'.repeat(WIDTH));
    for (const line of (r.footer ?? '').split('\n').filter(Boolean)) out.push(center(line));
    return out.join('\n') + '\n';
  }

  /** A receipt in minor units, built from the sale's records (both renderings start here). */
  private async receiptModel(principal: Principal, id: number) {
    const sale = await this.visible(principal, id);
    const [items, payments, store, decimals] = await Promise.all([
      this.sales.items([id]),
      this.sales.payments([id]),
      this.stores.store(sale.storeId),
      this.currencies.of(sale.currencyCode),
    ]);
    const taxes = new Map<number, number>();
    for (const l of items) taxes.set(l.taxRateBp, (taxes.get(l.taxRateBp) ?? 0) + l.tax);
    return {
      decimals,
      store: { id: sale.storeId, name: store?.name ?? '', address: store?.address ?? null, phone: store?.phone ?? null, header: store?.receiptHeader ?? null },
      receiptNumber: sale.receiptNumber,
      date: sale.createdAt.toISOString(),
      cashierId: sale.userId,
      customerId: sale.customerId,
      status: sale.status,
      lines: items.map((l) => ({
        name: l.name,
        sku: l.sku,
        quantity: l.quantity,
        unit: l.unitName,
        unit_price: l.unitPrice,
        discount: l.ruleDiscount + l.bundleDiscount + l.manualDiscount + l.cartDiscount,
        total: l.total,
        serial_number: l.serialNumber,
      })),
      subtotal: sale.subtotal,
      discountTotal: sale.discountTotal,
      taxes: [...taxes.entries()]
        .filter(([, v]) => v !== 0)
        .sort((a, b) => a[0] - b[0])
        .map(([rateBp, tax]) => ({ rateBp, tax })),
      taxTotal: sale.taxTotal,
      total: sale.totalAmount,
      payments: payments.map((p) => ({ method: p.methodCode, amount: p.amount, tendered: p.tendered, change: p.changeAmount })),
      change: sale.changeAmount,
      balanceDue: sale.balanceDue,
      pricesIncludeTax: store?.pricesIncludeTax ?? false,
      footer: store?.receiptFooter ?? null,
      currency: sale.currencyCode,
    };
  }

  /**
   * Voids a completed sale with no returns (sales.void): restocks every line, reverses the
   * payments (the invoice is voided, a refund of what was paid), emits sale.voided.
   */
  async void(principal: Principal, id: number, reason?: string) {
    return withTransactionRetry(this.txHost, async () => {
      // First, before any read: a void and a return being processed on the same sale take turns
      // (SaleReturns locks it too), so the checks below see what the other committed.
      await this.sales.lockSale(id);
      const sale = await this.visible(principal, id);
      if (sale.status !== 'completed') throw SaleErrors.notVoidable(sale.status);
      const items = await this.sales.items([id]);
      if (items.some((l) => l.returnedQuantity > 0)) throw SaleErrors.hasReturns();
      if (await this.openReturns.exist(id)) throw SaleErrors.hasOpenReturns();
      const now = this.clock.now();
      await this.ledger.restock(
        { type: 'sale_void', id: String(id), userId: principal.userId, storeId: sale.storeId, notes: reason ?? null },
        items.map((l) => ({
          field: `items.${l.lineNo}`,
          itemId: l.itemId,
          warehouseId: l.warehouseId,
          quantity: l.baseQuantity,
          serialNumber: l.serialNumber,
          unitCost: l.factor ? Math.round(l.unitCost / l.factor) : l.unitCost,
        })),
        'void',
      );
      await this.sales.updateSale(id, { status: 'voided', voidedAt: now, voidedBy: principal.userId, voidReason: reason ?? null, updatedAt: now });
      const invoice = await this.sales.invoiceOfSale(id);
      if (invoice) await this.sales.updateInvoice(invoice.id, { status: 'void', balance: 0, updatedAt: now });
      const detail = await this.views.detail(id, now);
      await this.changes.event(SaleVoided, { sale: detail, refunded: detail.paid_amount, reason: reason ?? null }, sale.storeId);
      await this.audit.record({
        action: 'sale.voided',
        target: { type: 'sale', id },
        storeId: sale.storeId,
        before: { status: sale.status },
        after: { status: 'voided', reason: reason ?? null, refunded: detail.paid_amount },
      });
      await this.domainEvents.publish(SaleVoidedFacts, {
        sale: { ...sale, status: 'voided', voidedAt: now, voidedBy: principal.userId, voidReason: reason ?? null, updatedAt: now },
        items,
        payments: await this.sales.payments([id]),
        voidedBy: principal.userId,
        at: now,
      });
      return detail;
    });
  }

  async visible(principal: Principal, id: number): Promise<SaleRecord> {
    const s = await this.sales.find(id);
    if (!s || !canAccessStore(principal, s.storeId)) throw new NotFoundError('Sale');
    return s;
  }
}

/** Invoices: one per sale; on-account balances paid later (`invoices.manage`). */
@Injectable()
export class InvoiceService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly sales: SaleRepository,
    private readonly stores: StoreContext,
    private readonly views: SaleViews,
    private readonly currencies: CurrencyDecimals,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, filter: { storeId?: number; warehouseId?: number; status?: string; from?: Date; to?: Date; q?: string }, page: PageRequest) {
    if (filter.storeId !== undefined) assertStoreAccess(principal, filter.storeId);
    // A warehouse named as a filter answers as a store does (decisions.md): another store's 403, unknown 422.
    if (filter.warehouseId !== undefined) await this.stores.requireWarehouse(principal, filter.warehouseId, 'forbidden');
    const now = this.clock.now();
    const result = await this.sales.invoices({ ...filter, storeIds: principal.stores, now }, page);
    const money = new Map<number, (v: number) => number>();
    for (const storeId of new Set(result.items.map((i) => i.storeId))) money.set(storeId, await this.moneyOfStore(storeId));
    return result.map((i) => invoiceView(i, now, money.get(i.storeId)));
  }

  async show(principal: Principal, id: number) {
    const inv = await this.sales.invoice(id);
    if (!inv || !canAccessStore(principal, inv.storeId)) throw new NotFoundError('Invoice');
    const [payments, m] = await Promise.all([this.sales.invoicePayments(id), this.moneyOfStore(inv.storeId)]);
    return {
      ...invoiceView(inv, this.clock.now(), m),
      payments: payments.map((p) => ({
        id: p.id,
        payment_method_code: p.methodCode,
        amount: m(p.amount),
        reference: p.reference,
        user_id: p.userId,
        created_at: p.createdAt.toISOString(),
      })),
    };
  }

  /** Records a later payment; `amount` is a JSON amount in the invoice's currency (its decimals decide what is valid). */
  async pay(principal: Principal, id: number, input: { code: string; amount: number; reference?: string }) {
    return withTransactionRetry(this.txHost, async () => {
      const inv = await this.sales.invoice(id);
      if (!inv || !canAccessStore(principal, inv.storeId)) throw new NotFoundError('Invoice');
      const store = await this.stores.store(inv.storeId);
      const decimals = await this.currencies.of(store?.currencyCode ?? '');
      const amount = amountToMinor(input.amount, decimals, 'amount');
      if (inv.status === 'void') throw SaleErrors.invoiceVoid();
      if (inv.balance <= 0) throw SaleErrors.invoicePaid();
      if (amount > inv.balance) throw ValidationFailedError.field('amount', `The amount cannot exceed the balance (${minorToString(inv.balance, decimals)}).`);
      const method = (await this.stores.paymentMethods(inv.storeId)).find((m) => m.code === input.code && m.type !== 'on_account');
      if (!method) throw ValidationFailedError.field('payment_method_code', 'The selected payment method is not available for invoice payments.');
      const now = this.clock.now();
      await this.sales.insertInvoicePayment({
        invoiceId: id,
        paymentMethodId: method.id,
        methodCode: method.code,
        amount,
        reference: input.reference ?? null,
        userId: principal.userId,
        createdAt: now,
      });
      const balance = inv.balance - amount;
      await this.sales.updateInvoice(id, { paid: inv.paid + amount, balance, status: balance === 0 ? 'paid' : 'partially_paid', updatedAt: now });
      return this.show(principal, id);
    });
  }

  private async moneyOfStore(storeId: number): Promise<(v: number) => number> {
    const store = await this.stores.store(storeId);
    return this.views.money(store?.currencyCode ?? '');
  }
}
