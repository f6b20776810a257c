import { Injectable } from '@nestjs/common';
import { Clock, ConflictError, fromMinor, NotFoundError, Page, PageRequest } from '@pos/kernel';
import { canAccessStore, Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { AuditLog, Transactional } from '@pos/platform';
import { CurrencyDecimals } from '@pos/pricing';
import { SaleReviewFilter, SaleReviewRecord, SaleReviewRepository } from './sale-review.ports';

/** A review as the API shows it: amounts in the sale currency's decimals. */
export interface SaleReviewView {
  id: number;
  sale_id: number;
  receipt_number: string;
  store_id: number;
  user_id: number;
  reason: string;
  status: 'open' | 'resolved';
  currency: string;
  difference: number;
  lines: {
    line: number;
    item_id: number;
    quantity: number;
    unit_price: number;
    amount: number;
    reference_unit_price: number;
    reference_amount: number;
    difference: number;
    percent: number;
    decision: string;
  }[];
  sale_created_at: string;
  created_at: string;
  resolved_at: string | null;
  resolved_by: number | null;
  resolution_note: string | null;
}

/**
 * Sales a manager should look at: offline sales recorded at a price below the server's reference
 * beyond the cashier's limits (flagged by checkout's offline price step). The sale stands (the goods
 * left the shop); a manager reads the queue and resolves each entry with a note. Store-scoped: a
 * review of a store the reader does not have is 404.
 */
@Injectable()
export class SaleReviewService {
  constructor(
    private readonly reviews: SaleReviewRepository,
    private readonly currencies: CurrencyDecimals,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly stores: StoreContext,
  ) {}

  async list(principal: Principal, filter: Omit<SaleReviewFilter, 'storeIds'>, page: PageRequest): Promise<Page<SaleReviewView>> {
    if (filter.storeId !== undefined) await this.stores.requireStoreFilter(principal, filter.storeId);
    const found = await this.reviews.list({ ...filter, storeIds: principal.stores }, page);
    const views = await Promise.all(found.items.map((r) => this.view(r)));
    return new Page(views, found.total, found.page, found.perPage);
  }

  /** The reviews of these sales, by sale id (the upload answers each flagged sale with its review). */
  async ofSales(saleIds: number[]): Promise<Map<number, SaleReviewView>> {
    const out = new Map<number, SaleReviewView>();
    for (const r of await this.reviews.ofSales([...new Set(saleIds)])) out.set(r.saleId, await this.view(r));
    return out;
  }

  @Transactional()
  async resolve(principal: Principal, id: number, note: string): Promise<SaleReviewView> {
    const review = await this.reviews.find(id);
    if (!review || !canAccessStore(principal, review.storeId)) throw new NotFoundError('Sale review');
    // Whole seconds, as MySQL keeps them: the answer is what a later read returns.
    const at = new Date(Math.floor(this.clock.now().getTime() / 1000) * 1000);
    if (!(await this.reviews.resolve(id, principal.userId, note, at))) {
      throw new ConflictError('sale_review_resolved', 'This review is already resolved.');
    }
    const resolved = { ...review, resolvedAt: at, resolvedBy: principal.userId, resolutionNote: note };
    await this.audit.record({
      action: 'sale_review.resolved',
      target: { type: 'sale', id: review.saleId },
      storeId: review.storeId,
      after: { review_id: id, reason: review.reason, note },
    });
    return this.view(resolved);
  }

  private async view(r: SaleReviewRecord): Promise<SaleReviewView> {
    const decimals = await this.currencies.of(r.currencyCode);
    const m = (v: number) => fromMinor(v, decimals);
    return {
      id: r.id,
      sale_id: r.saleId,
      receipt_number: r.receiptNumber,
      store_id: r.storeId,
      user_id: r.userId,
      reason: r.reason,
      status: r.resolvedAt ? 'resolved' : 'open',
      currency: r.currencyCode,
      difference: m(r.difference),
      lines: r.lines.map((l) => ({
        line: l.line,
        item_id: l.itemId,
        quantity: l.quantity,
        unit_price: m(l.unitPrice),
        amount: m(l.amount),
        reference_unit_price: m(l.referenceUnitPrice),
        reference_amount: m(l.referenceAmount),
        difference: m(l.difference),
        percent: l.percentBp / 100,
        decision: l.decision,
      })),
      sale_created_at: r.saleCreatedAt.toISOString(),
      created_at: r.createdAt.toISOString(),
      resolved_at: r.resolvedAt?.toISOString() ?? null,
      resolved_by: r.resolvedBy,
      resolution_note: r.resolutionNote,
    };
  }
}
