import { Injectable } from '@nestjs/common';
import { ConflictError } from '@pos/kernel';
import { KeyedCache, TxRepository } from '@pos/platform';
import { CatalogCurrency } from '../application/catalog.ports';

const TTL_MS = 60_000;

/**
 * The base currency's decimals, read from the pricing context's `currencies` table (read only,
 * never written here) and kept per process for a minute: the base currency is set up once.
 */
@Injectable()
export class SqlCatalogCurrency extends TxRepository implements CatalogCurrency {
  /** One key (0): the base currency's decimals. */
  private readonly base = new KeyedCache<number>(TTL_MS);

  decimals(): Promise<number> {
    return this.base.get(0, async () => {
      const [row] = await this.em.query('SELECT decimals FROM currencies WHERE is_base = 1 ORDER BY id LIMIT 1');
      if (!row) throw new ConflictError('base_currency_missing', 'No base currency is configured (currencies.is_base): catalog amounts are kept in it.');
      return Number(row.decimals);
    });
  }
}
