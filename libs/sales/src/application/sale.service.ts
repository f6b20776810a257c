import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Clock, ConflictError, fromMinor, minorToString, NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, canAccessStore, Principal } from '@pos/identity';
import { StockRepository, StoreRepository } from '@pos/catalog';
import { ChangeLog } from '@pos/platform';
import { SaleFilter, SaleRecord, SaleRepository } from './sale.ports';
import { invoiceView, SaleViews } from './sale.views';

const WIDTH = 40;

/** Sales history, receipts and voids. Another store's sale by id is 404; its store as a filter 403. */
@Injectable()
export class SaleService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly sales: SaleRepository,
    private readonly views: SaleViews,
    private readonly stores: StoreRepository,
    private readonly stock: StockRepository,
    private readonly changes: ChangeLog,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, filter: Omit<SaleFilter, 'storeIds'>, page: PageRequest) {
    if (filter.storeId !== undefined) assertStoreAccess(principal, filter.storeId);
    if (filter.warehouseId !== undefined) await assertWarehouseFilter(this.stores, principal, filter.warehouseId);
    const result = await this.sales.list({ ...filter, storeIds: principal.stores }, page);
    const rows = await this.views.summaries(result.items);
    return new Page(rows, result.total, result.page, result.perPage);
  }

  async show(principal: Principal, id: number) {
    await this.visible(principal, id);
    return this.views.detail(id, this.clock.now());
  }

  /** All a printer needs; `text` renders a 40-column plain receipt. */
  async receipt(principal: Principal, id: number) {
    const sale = await this.visible(principal, id);
    const detail = await this.views.detail(id, this.clock.now());
    const store = (await this.stores.findStore(sale.storeId))!;
    return {
      store: { id: store.id, name: store.name, address: store.address, phone: store.phone, header: store.receiptHeader },
      receipt_number: detail.receipt_number,
      date: detail.created_at,
      cashier_id: sale.userId,
      customer_id: sale.customerId,
      status: detail.status,
      lines: detail.items.map((l) => ({
        name: l.name,
        sku: l.sku,
        quantity: l.quantity,
        unit: l.unit?.name ?? null,
        unit_price: l.unit_price,
        discount: l.discounts.total,
        total: l.total,
        serial_number: l.serial_number,
      })),
      subtotal: detail.subtotal,
      discount_total: detail.discount_total,
      taxes: this.taxLines(detail.items),
      tax_total: detail.tax_total,
      total: detail.total_amount,
      payments: detail.payments.map((p) => ({ method: p.payment_method_code, amount: p.amount, tendered: p.tendered, change: p.change })),
      change: detail.change_amount,
      balance_due: detail.balance_due,
      prices_include_tax: store.pricesIncludeTax,
      footer: store.receiptFooter,
      currency: detail.currency,
    };
  }

  async receiptText(principal: Principal, id: number): Promise<string> {
    const r = await this.receipt(principal, id);
    const money = (v: number) => minorToString(Math.round(v * 100));
    const row = (left: string, right: string) => {
      const l = left.slice(0, WIDTH - right.length - 1);
      return l + ' '.repeat(Math.max(1, WIDTH - l.length - right.length)) + right;
    };
    const center = (s: string) => ' '.repeat(Math.max(0, Math.floor((WIDTH - s.length) / 2))) + s.slice(0, WIDTH);
    const out: string[] = [];
    for (const line of (r.store.header ?? r.store.name).split('\n')) out.push(center(line));
    out.push(
      '-'.repeat(WIDTH),
      row(`Receipt ${r.receipt_number}`, ''),
      row(r.date.slice(0, 16).replace('T', ' '), r.status === 'completed' ? '' : r.status.toUpperCase()),
      '-'.repeat(WIDTH),
    );
    for (const l of r.lines) {
      out.push(row(l.name, money(l.total)));
      out.push(`  ${l.quantity}${l.unit ? ' ' + l.unit : ''} x ${money(l.unit_price)}${l.discount ? `  -${money(l.discount)}` : ''}`);
      if (l.serial_number) out.push(`  S/N ${l.serial_number}`);
    }
    out.push('-'.repeat(WIDTH), row('Subtotal', money(r.subtotal)));
    if (r.discount_total) out.push(row('Discounts', '-' + money(r.discount_total)));
    for (const t of r.taxes) out.push(row(`Tax ${t.rate}%${r.prices_include_tax ? ' (incl.)' : ''}`, money(t.tax)));
    out.push(row('TOTAL', `${r.currency} ${money(r.total)}`));
    for (const p of r.payments) out.push(row(p.method.toUpperCase(), money(p.tendered ?? p.amount)));
    if (r.change) out.push(row('Change', money(r.change)));
    if (r.balance_due) out.push(row('On account', money(r.balance_due)));
    out.push('-'.repeat(WIDTH));
    for (const line of (r.footer ?? '').split('\n').filter(Boolean)) out.push(center(line));
    return out.join('\n') + '\n';
  }

  /**
   * Voids a completed sale with no returns (sales.void): restocks every line, reverses the
   * payments (the invoice is voided, a refund of what was paid), emits sale.voided.
   */
  async void(principal: Principal, id: number, reason?: string) {
    return this.txHost.withTransaction(async () => {
      const sale = await this.visible(principal, id);
      if (sale.status !== 'completed') throw new ConflictError('sale_not_voidable', `A ${sale.status} sale cannot be voided.`);
      const items = await this.sales.items([id]);
      if (items.some((l) => l.returnedQuantity > 0)) throw new ConflictError('sale_has_returns', 'A sale with returns cannot be voided.');
      const now = this.clock.now();
      for (const l of items) {
        await this.stock.move(
          {
            itemId: l.itemId,
            warehouseId: l.warehouseId,
            type: 'void',
            delta: l.baseQuantity,
            unitCost: l.factor ? Math.round(l.unitCost / l.factor) : l.unitCost,
            referenceType: 'sale_void',
            referenceId: String(id),
            userId: principal.userId,
            notes: reason ?? null,
          },
          null,
          now,
        );
        if (l.serialNumber) {
          const [serial] = await this.stock.serials(l.itemId, { serials: [l.serialNumber] });
          if (serial) await this.stock.updateSerials([serial.id], { status: 'in_stock', saleId: null, warehouseId: l.warehouseId }, now);
        }
      }
      await this.sales.updateSale(id, { status: 'voided', voidedAt: now, voidedBy: principal.userId, voidReason: reason ?? null, updatedAt: now });
      const invoice = await this.sales.invoiceOfSale(id);
      if (invoice) await this.sales.updateInvoice(invoice.id, { status: 'void', balance: 0, updatedAt: now });
      const detail = await this.views.detail(id, now);
      await this.changes.event('sale.voided', { sale: detail, refunded: detail.paid_amount, reason: reason ?? null }, sale.storeId);
      return detail;
    });
  }

  private taxLines(items: { tax_rate: number; tax: number; net: number }[]) {
    const byRate = new Map<number, number>();
    for (const l of items) byRate.set(l.tax_rate, (byRate.get(l.tax_rate) ?? 0) + Math.round(l.tax * 100));
    return [...byRate.entries()]
      .filter(([, v]) => v !== 0)
      .sort((a, b) => a[0] - b[0])
      .map(([rate, tax]) => ({ rate, tax: fromMinor(tax) }));
  }

  async visible(principal: Principal, id: number): Promise<SaleRecord> {
    const s = await this.sales.find(id);
    if (!s || !canAccessStore(principal, s.storeId)) throw new NotFoundError('Sale');
    return s;
  }
}

/**
 * A warehouse named as a filter answers as a store does (decisions.md): another store's is 403,
 * as on /inventory; an unknown one is 422.
 */
async function assertWarehouseFilter(stores: StoreRepository, principal: Principal, warehouseId: number): Promise<void> {
  const warehouse = await stores.findWarehouse(warehouseId);
  if (!warehouse) throw ValidationFailedError.field('warehouse_id', 'The selected warehouse does not exist.');
  if (principal.stores === 'all') return;
  const served = await stores.storesOfWarehouse(warehouseId);
  if (!served.some((s) => canAccessStore(principal, s))) assertStoreAccess(principal, served[0] ?? warehouse.storeId ?? -1);
}

/** Invoices: one per sale; on-account balances paid later (`invoices.manage`). */
@Injectable()
export class InvoiceService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly sales: SaleRepository,
    private readonly stores: StoreRepository,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, filter: { storeId?: number; warehouseId?: number; status?: string; from?: Date; to?: Date; q?: string }, page: PageRequest) {
    if (filter.storeId !== undefined) assertStoreAccess(principal, filter.storeId);
    if (filter.warehouseId !== undefined) await assertWarehouseFilter(this.stores, principal, filter.warehouseId);
    const now = this.clock.now();
    return (await this.sales.invoices({ ...filter, storeIds: principal.stores, now }, page)).map((i) => invoiceView(i, now));
  }

  async show(principal: Principal, id: number) {
    const inv = await this.sales.invoice(id);
    if (!inv || !canAccessStore(principal, inv.storeId)) throw new NotFoundError('Invoice');
    const payments = await this.sales.invoicePayments(id);
    return {
      ...invoiceView(inv, this.clock.now()),
      payments: payments.map((p) => ({
        id: p.id,
        payment_method_code: p.methodCode,
        amount: fromMinor(p.amount),
        reference: p.reference,
        user_id: p.userId,
        created_at: p.createdAt.toISOString(),
      })),
    };
  }

  async pay(principal: Principal, id: number, input: { code: string; amount: number; reference?: string }) {
    return this.txHost.withTransaction(async () => {
      const inv = await this.sales.invoice(id);
      if (!inv || !canAccessStore(principal, inv.storeId)) throw new NotFoundError('Invoice');
      if (inv.status === 'void') throw new ConflictError('invoice_void', 'A voided invoice cannot be paid.');
      if (inv.balance <= 0) throw new ConflictError('invoice_paid', 'The invoice is already paid.');
      if (input.amount > inv.balance) throw ValidationFailedError.field('amount', `The amount cannot exceed the balance (${fromMinor(inv.balance)}).`);
      const method = ((await this.stores.paymentMethodsByStore([inv.storeId])).get(inv.storeId) ?? []).find(
        (m) => m.code === input.code && m.type !== 'on_account',
      );
      if (!method) throw ValidationFailedError.field('payment_method_code', 'The selected payment method is not available for invoice payments.');
      const now = this.clock.now();
      await this.sales.insertInvoicePayment({
        invoiceId: id,
        paymentMethodId: method.id,
        methodCode: method.code,
        amount: input.amount,
        reference: input.reference ?? null,
        userId: principal.userId,
        createdAt: now,
      });
      const balance = inv.balance - input.amount;
      await this.sales.updateInvoice(id, { paid: inv.paid + input.amount, balance, status: balance === 0 ? 'paid' : 'partially_paid', updatedAt: now });
      return this.show(principal, id);
    });
  }
}
