import { Inject, Injectable } from '@nestjs/common';
import { Clock, NotFoundError, Page, PageRequest } from '@pos/kernel';
import { canAccessStore, Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { APP_CONFIG, AppConfig } from '@pos/platform';
import { SaleReturns } from '@pos/sales';
import { returnEligibility } from '../domain/eligibility';
import { reasonView, ReturnViews } from './return.views';
import { ReturnFilter, ReturnRepository } from './return.ports';

/** Reading returns: reasons, a sale's eligibility, lists (store-scoped like sales) and details. */
@Injectable()
export class ReturnService {
  constructor(
    private readonly returns: ReturnRepository,
    private readonly views: ReturnViews,
    private readonly sales: SaleReturns,
    private readonly customers: CustomerService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly stores: StoreContext,
  ) {}

  async reasons() {
    return (await this.returns.reasons(true)).map(reasonView);
  }

  /**
   * GET /returns/check-sale: whether the sale can be returned (and why not) and, per line, the
   * units sold, returned (processed), held by pending or approved returns and still returnable,
   * with their amounts. Unknown or another store's sale: 404.
   */
  async checkSale(principal: Principal, saleId: number) {
    const { sale, items } = await this.sales.find(principal, saleId);
    const [claims, returns] = await Promise.all([this.returns.claims(saleId), this.returns.ofSales([saleId])]);
    const held = new Map(claims.map((c) => [c.saleItemId, c]));
    const processedIds = returns.filter((r) => r.status === 'processed').map((r) => r.id);
    const processed = new Map<number, { quantity: number; total: number }>();
    for (const l of await this.returns.items(processedIds)) {
      const p = processed.get(l.saleItemId) ?? { quantity: 0, total: 0 };
      processed.set(l.saleItemId, { quantity: p.quantity + l.quantity, total: p.total + l.refundTotal });
    }
    const unitsLeft = items.reduce((a, l) => a + l.quantity - (held.get(l.id)?.claimedQuantity ?? 0), 0);
    const soldAt = sale.createdAt; // an offline sale's created_at is when it happened
    const e = returnEligibility({ status: sale.status, soldAt }, this.clock.now(), this.config.returnWindowDays, unitsLeft);
    const m = await this.views.money(sale.currencyCode);
    return {
      sale_id: sale.id,
      receipt_number: sale.receiptNumber,
      sale_status: sale.status,
      store_id: sale.storeId,
      customer_id: sale.customerId,
      currency: sale.currencyCode,
      sold_at: soldAt.toISOString(),
      total_amount: m(sale.totalAmount),
      eligible: e.eligible,
      reason: e.reason,
      message: e.message,
      return_window_days: this.config.returnWindowDays,
      return_deadline: e.deadline.toISOString(),
      refunded_amount: m([...processed.values()].reduce((a, p) => a + p.total, 0)),
      items: items.map((l) => {
        const claim = held.get(l.id);
        const heldQuantity = claim?.claimedQuantity ?? 0;
        const heldTotal = claim?.claimedTotal ?? 0;
        const done = processed.get(l.id) ?? { quantity: 0, total: 0 };
        return {
          sale_item_id: l.id,
          line: l.lineNo,
          item_id: l.itemId,
          sku: l.sku,
          name: l.name,
          unit: l.unitId ? { id: l.unitId, name: l.unitName, factor: l.factor } : null,
          serial_number: l.serialNumber,
          warehouse_id: l.warehouseId,
          unit_price: m(l.unitPrice),
          total: m(l.total),
          quantity: l.quantity,
          returned_quantity: done.quantity,
          pending_quantity: heldQuantity - done.quantity,
          returnable_quantity: e.eligible ? l.quantity - heldQuantity : 0,
          returned_amount: m(done.total),
          pending_amount: m(heldTotal - done.total),
          returnable_amount: e.eligible ? m(l.total - heldTotal) : 0,
        };
      }),
      returns: await this.views.summaries(returns),
    };
  }

  async list(principal: Principal, filter: Omit<ReturnFilter, 'storeIds' | 'qCustomerIds'>, page: PageRequest) {
    if (filter.storeId !== undefined) await this.stores.requireStoreFilter(principal, filter.storeId);
    const qCustomerIds = filter.q ? await this.customers.idsMatching(filter.q) : undefined;
    const result = await this.returns.list({ ...filter, qCustomerIds, storeIds: principal.stores }, page);
    return new Page(await this.views.summaries(result.items), result.total, result.page, result.perPage);
  }

  async show(principal: Principal, id: number) {
    const r = await this.returns.find(id);
    if (!r || !canAccessStore(principal, r.storeId)) throw new NotFoundError('Return');
    return this.views.detail(id);
  }

  /** The returns of a sale the caller can see, as summary rows (a sale's detail lists them). */
  async ofSale(principal: Principal, saleId: number) {
    const rows = (await this.returns.ofSales([saleId])).filter((r) => canAccessStore(principal, r.storeId));
    return this.views.summaries(rows);
  }
}
