import { Injectable } from '@nestjs/common';
import { ConflictError, fromMinor, NotFoundError, PageRequest } from '@pos/kernel';
import { canAccessStore, Principal } from '@pos/identity';
import { CurrencyRecord } from './reference.records';
import { PriceBookWithScope, ReferenceRepository } from './reference.ports';

export function currencyView(c: CurrencyRecord) {
  return {
    id: c.id,
    code: c.code,
    name: c.name,
    symbol: c.symbol,
    decimals: c.decimals,
    is_base: c.isBase,
    is_active: c.isActive,
    updated_at: c.updatedAt.toISOString(),
  };
}

function priceBookView(b: PriceBookWithScope) {
  return {
    id: b.id,
    name: b.name,
    code: b.code,
    currency_code: b.currencyCode,
    priority: b.priority,
    is_active: b.isActive,
    valid_from: b.validFrom?.toISOString() ?? null,
    valid_to: b.validTo?.toISOString() ?? null,
    store_ids: b.storeIds,
    customer_group_ids: b.customerGroupIds,
    updated_at: b.updatedAt.toISOString(),
  };
}

/** Currencies and price books as reference data (pricing proper is the pricing context's). */
@Injectable()
export class ReferenceService {
  constructor(private readonly reference: ReferenceRepository) {}

  async currencies() {
    return (await this.reference.currencies()).map(currencyView);
  }

  async currency(idOrCode: string) {
    const key = /^\d{1,9}$/.test(idOrCode) ? Number(idOrCode) : /^[A-Za-z]{3}$/.test(idOrCode) ? idOrCode.toUpperCase() : null;
    const c = key === null ? null : await this.reference.currency(key);
    if (!c) throw new NotFoundError('Currency');
    return currencyView(c);
  }

  /** Offline sync: the books a terminal of this store prices with (active, in its currency, scoped to it or unscoped). */
  async storePriceBooks(storeId: number, currencyCode: string) {
    return (await this.reference.priceBooksForStore(storeId, currencyCode)).map(priceBookView);
  }

  /**
   * Offline sync: entries of these books after an id, in id order, amounts in the store
   * currency's decimals; with `changedSince`, only those changed since (all of `wholeBookIds`).
   */
  async priceBookEntryPage(bookIds: number[], page: { afterId: number; limit: number; changedSince?: Date; wholeBookIds?: number[] }, decimals: number) {
    return (await this.reference.priceBookEntryPage(bookIds, page)).map((e) => ({
      id: e.id,
      price_book_id: e.priceBookId,
      item_id: e.itemId,
      price: fromMinor(e.price, decimals),
      min_quantity: e.minQuantity,
      updated_at: e.updatedAt.toISOString(),
    }));
  }

  /** Price books that apply to the caller's stores (or to every store). */
  async priceBooks(principal: Principal, page: PageRequest) {
    return (await this.reference.priceBooks(principal.stores, page)).map(priceBookView);
  }

  async priceBook(principal: Principal, id: number) {
    const book = await this.reference.priceBook(id);
    if (!book || (book.storeIds.length > 0 && !book.storeIds.some((s) => canAccessStore(principal, s)))) throw new NotFoundError('Price book');
    // Entries are in the book's own currency (a book applies only to stores selling in it).
    const [entries, currency] = await Promise.all([this.reference.priceBookEntries(id), this.reference.currency(book.currencyCode)]);
    if (!currency) throw new ConflictError('currency_missing', `The price book's currency ${book.currencyCode} is not configured.`);
    const m = (v: number) => fromMinor(v, currency.decimals);
    return { ...priceBookView(book), entries: entries.map((e) => ({ id: e.id, item_id: e.itemId, price: m(e.price), min_quantity: e.minQuantity })) };
  }
}
