import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { amountToMinor, Clock, minorToString, NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { canAccessStore, Principal } from '@pos/identity';
import { ItemCatalog, StoreContext } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { CurrencyDecimals } from '@pos/pricing';
import { ChangeLog, withTransactionRetry } from '@pos/platform';
import { SaleErrors } from '../domain/sale.errors';
import { SaleVoids, visibleSale } from './sale-voids';
import { InvoicePaymentRecorded } from './sale.events';
import { InvoiceFilter, InvoiceRepository } from './invoice.ports';
import { SaleFilter, SaleQueries } from './sale-queries.ports';
import { SaleRecord, SaleRepository } from './sale.ports';
import { invoiceView, SaleViews } from './sale.views';

/**
 * Sales history (receipts: SaleReceipts; voids: SaleVoids). Another store's sale by id is 404; its
 * store as a filter 403.
 */
@Injectable()
export class SaleService {
  constructor(
    private readonly sales: SaleRepository,
    private readonly queries: SaleQueries,
    private readonly views: SaleViews,
    private readonly stores: StoreContext,
    private readonly items: ItemCatalog,
    private readonly customers: CustomerService,
    private readonly clock: Clock,
    private readonly voids: SaleVoids,
  ) {}

  async list(principal: Principal, filter: Omit<SaleFilter, 'storeIds'>, page: PageRequest) {
    if (filter.storeId !== undefined) await this.stores.requireStoreFilter(principal, filter.storeId);
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

  /** Voids a completed sale with no returns (SaleVoids). */
  void(principal: Principal, id: number, reason?: string) {
    return this.voids.void(principal, id, reason);
  }

  async visible(principal: Principal, id: number): Promise<SaleRecord> {
    return visibleSale(this.sales, principal, id);
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
    if (filter.storeId !== undefined) await this.stores.requireStoreFilter(principal, filter.storeId);
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
      await this.invoices.updateInvoice(id, {
        paid: inv.paid + amount,
        paidLater: inv.paidLater + amount,
        balance,
        status: balance === 0 ? 'paid' : 'partially_paid',
        updatedAt: now,
      });
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
