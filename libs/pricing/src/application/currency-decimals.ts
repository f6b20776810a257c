import { Injectable } from '@nestjs/common';
import { ConflictError } from '@pos/kernel';
import { KeyedCache } from '@pos/platform';
import { CatalogCurrency, StoreContext } from '@pos/catalog';
import { ReferenceRepository } from './reference.ports';

const TTL_MS = 60_000;

/**
 * The most decimals the service reads an amount with before it knows the currency (a request
 * naming no store or an unknown one, which its use case then refuses: 403, 404 or 422). Nothing
 * read with it is ever stored or priced.
 */
const UNRESOLVED_DECIMALS = 8;

/**
 * How many decimals a currency's amounts carry (USD 2, JPY 0): the HTTP edge reads and writes
 * JSON amounts in the store's currency with them, and views turn minor units back with them.
 * Money has no default scale: an unknown currency is a 409 (`currency_missing`), never read as
 * two decimals. Currencies almost never change, so answers are cached per process for a minute.
 */
@Injectable()
export class CurrencyDecimals {
  private readonly cache = new KeyedCache<number, string>(TTL_MS);

  constructor(
    private readonly reference: ReferenceRepository,
    private readonly stores: StoreContext,
    private readonly catalog: CatalogCurrency,
  ) {}

  of(currencyCode: string): Promise<number> {
    return this.cache.get(currencyCode, async () => {
      const currency = await this.reference.currency(currencyCode);
      if (!currency) throw new ConflictError('currency_missing', `The currency ${currencyCode.slice(0, 8)} is not configured.`);
      return currency.decimals;
    });
  }

  /**
   * Decimals of a store's currency. A store that is not given or does not exist has none: its
   * amounts are read leniently (the request is refused by its use case, nothing is kept).
   */
  async ofStore(storeId: number | undefined | null): Promise<number> {
    if (storeId === undefined || storeId === null) return UNRESOLVED_DECIMALS;
    const store = await this.stores.store(storeId);
    return store ? this.of(store.currencyCode) : UNRESOLVED_DECIMALS;
  }

  /** Decimals of a price book's currency (its entries' prices); an unknown book's are read leniently (the use case refuses it). */
  async ofPriceBook(priceBookId: number): Promise<number> {
    const book = await this.reference.priceBook(priceBookId);
    return book ? this.of(book.currencyCode) : UNRESOLVED_DECIMALS;
  }

  /** Decimals of chain-wide catalog amounts (item prices, rules, bundles): the base currency's. */
  ofCatalog(): Promise<number> {
    return this.catalog.decimals();
  }
}
