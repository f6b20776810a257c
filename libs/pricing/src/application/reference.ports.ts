import { Page, PageRequest } from '@pos/kernel';
import { StoreScope } from '@pos/catalog';
import { CurrencyRecord, PriceBookEntryRecord, PriceBookRecord, TaxClassRecord, TaxRateRecord } from './reference.records';

export type PriceBookWithScope = PriceBookRecord & { storeIds: number[]; customerGroupIds: number[] };

/** Tax classes and rates, currencies and price books (the pricing context's reference data). */
export abstract class ReferenceRepository {
  abstract currencies(): Promise<CurrencyRecord[]>;
  abstract currency(idOrCode: number | string): Promise<CurrencyRecord | null>;
  abstract taxClasses(ids?: number[]): Promise<TaxClassRecord[]>;
  abstract taxRates(taxClassIds: number[], storeId: number | null): Promise<TaxRateRecord[]>;
  abstract priceBooks(scope: StoreScope, page: PageRequest): Promise<Page<PriceBookWithScope>>;
  abstract priceBook(id: number): Promise<PriceBookWithScope | null>;
  abstract priceBookEntries(priceBookId: number): Promise<PriceBookEntryRecord[]>;
  /** The live books among these ids, each with the stores it applies in (none: every store). */
  abstract priceBookStores(ids: number[]): Promise<Map<number, number[]>>;
  /** Upserts price-book entries (absolute prices: re-applying is harmless). */
  /** Active, undeleted books in the store's currency that apply to it (scoped to it or unscoped). */
  abstract priceBooksForStore(storeId: number, currencyCode: string): Promise<PriceBookWithScope[]>;
  /** Entries of some books after an id in id order; with `changedSince`, those changed since (all entries of `wholeBookIds`). */
  abstract priceBookEntryPage(
    bookIds: number[],
    page: { afterId: number; limit: number; changedSince?: Date; wholeBookIds?: number[] },
  ): Promise<(PriceBookEntryRecord & { updatedAt: Date })[]>;
  abstract upsertPriceBookEntries(entries: { priceBookId: number; itemId: number; price: number; minQuantity: number }[], now: Date): Promise<void>;
}
