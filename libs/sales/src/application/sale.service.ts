import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { amountToMinor, Clock, minorToString, NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, canAccessStore, Principal } from '@pos/identity';
import { ItemCatalog, StockLedger, StoreContext } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { CurrencyDecimals } from '@pos/pricing';
import { SessionService } from '@pos/sessions';
import { AuditLog, ChangeLog, DomainEvents, requirePort, withTransactionRetry } from '@pos/platform';
import { SaleErrors } from '../domain/sale.errors';
import { OpenReturns } from './sale-returns';
import { InvoicePaymentRecorded, SaleVoided, SaleVoidedFacts } from './sale.events';
import { InvoiceFilter, InvoiceRepository } from './invoice.ports';
import { SaleFilter, SaleQueries } from './sale-queries.ports';
import { SaleRecord, SaleRepository } from './sale.ports';
import { invoiceView, SaleViews } from './sale.views';

/** Sales history and voids (receipts: SaleReceipts). Another store's sale by id is 404; its store as a filter 403. */
@Injectable()
export class SaleService implements OnModuleInit {
  private openReturns!: OpenReturns;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly sales: SaleRepository,
    private readonly queries: SaleQueries,
    private readonly invoices: InvoiceRepository,
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
    private readonly sessions: SessionService,
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
    const result = await this.queries.list({ ...filter, ...q, storeIds: principal.stores }, page);
    const rows = await this.views.summaries(result.items);
    return new Page(rows, result.total, result.page, result.perPage);
  }

  async show(principal: Principal, id: number) {
    await this.visible(principal, id);
    return this.views.detail(id, this.clock.now());
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
      // A closed session's drawer was counted with this sale's cash in it: it keeps the sale.
      const voidedAfterClose = sale.sessionId !== null && (await this.sessions.isClosed(sale.sessionId));
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
      await this.sales.updateSale(id, {
        status: 'voided',
        voidedAt: now,
        voidedBy: principal.userId,
        voidReason: reason ?? null,
        voidedAfterClose,
        updatedAt: now,
      });
      const invoice = await this.invoices.invoiceOfSale(id);
      if (invoice) await this.invoices.updateInvoice(invoice.id, { status: 'void', balance: 0, updatedAt: now });
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
        sale: { ...sale, status: 'voided', voidedAt: now, voidedBy: principal.userId, voidReason: reason ?? null, voidedAfterClose, updatedAt: now },
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
    private readonly invoices: InvoiceRepository,
    private readonly stores: StoreContext,
    private readonly views: SaleViews,
    private readonly currencies: CurrencyDecimals,
    private readonly clock: Clock,
    private readonly changes: ChangeLog,
  ) {}

  async list(principal: Principal, filter: Omit<InvoiceFilter, 'storeIds' | 'now'>, page: PageRequest) {
    if (filter.storeId !== undefined) assertStoreAccess(principal, filter.storeId);
    // A warehouse named as a filter answers as a store does (decisions.md): another store's 403, unknown 422.
    if (filter.warehouseId !== undefined) await this.stores.requireWarehouse(principal, filter.warehouseId, 'forbidden');
    const now = this.clock.now();
    const result = await this.invoices.invoices({ ...filter, storeIds: principal.stores, now }, page);
    const money = new Map<number, (v: number) => number>();
    for (const storeId of new Set(result.items.map((i) => i.storeId))) money.set(storeId, await this.moneyOfStore(storeId));
    return result.map((i) => invoiceView(i, now, money.get(i.storeId)!));
  }

  async show(principal: Principal, id: number) {
    const inv = await this.invoices.invoice(id);
    if (!inv || !canAccessStore(principal, inv.storeId)) throw new NotFoundError('Invoice');
    const [payments, m] = await Promise.all([this.invoices.invoicePayments(id), this.moneyOfStore(inv.storeId)]);
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
      const inv = await this.invoices.invoice(id);
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
      const payment = await this.invoices.insertInvoicePayment({
        invoiceId: id,
        paymentMethodId: method.id,
        methodCode: method.code,
        amount,
        reference: input.reference ?? null,
        userId: principal.userId,
        createdAt: now,
      });
      const balance = inv.balance - amount;
      await this.invoices.updateInvoice(id, { paid: inv.paid + amount, balance, status: balance === 0 ? 'paid' : 'partially_paid', updatedAt: now });
      const invoice = await this.show(principal, id);
      await this.changes.event(InvoicePaymentRecorded, { invoice, payment: invoice.payments.find((p) => p.id === payment.id)! }, inv.storeId);
      return invoice;
    });
  }

  private async moneyOfStore(storeId: number): Promise<(v: number) => number> {
    const store = await this.stores.store(storeId);
    return this.views.money(store?.currencyCode ?? '');
  }
}
