import { Injectable } from '@nestjs/common';
import { ConflictError } from '@pos/kernel';
import { KeyedCache, TxRepository } from '@pos/platform';
import { StoreDirectory } from '../application/ports';

const DECIMALS_TTL_MS = 60_000;

/**
 * Reads store ids and names (and the decimals of a store's currency) straight from the stores and
 * currencies tables. Identity needs only these facts, so it reads them itself rather than depending on the catalog module (which depends on
 * identity's principal for store scoping).
 */
@Injectable()
export class SqlStoreDirectory extends TxRepository implements StoreDirectory {
  /** By store id; 0: the base currency's. */
  private readonly decimals = new KeyedCache<number>(DECIMALS_TTL_MS, { max: 10_000 });

  moneyDecimals(storeId: number | null): Promise<number> {
    return this.decimals.get(storeId ?? 0, async () => {
      const [row] =
        storeId === null
          ? await this.em.query('SELECT decimals FROM currencies WHERE is_base = 1 ORDER BY id LIMIT 1')
          : await this.em.query('SELECT c.decimals AS decimals FROM stores s JOIN currencies c ON c.code = s.currency_code WHERE s.id = ?', [storeId]);
      if (!row) throw new ConflictError('currency_missing', storeId === null ? 'No base currency is configured.' : "The store's currency is not configured.");
      return Number(row.decimals);
    });
  }

  async names(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.em
      .createQueryBuilder()
      .select(['s.id AS id', 's.name AS name'])
      .from('stores', 's')
      .where('s.id IN (:...ids)', { ids })
      .getRawMany<{ id: number; name: string }>();
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }

  async existingIds(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.em
      .createQueryBuilder()
      .select('s.id', 'id')
      .from('stores', 's')
      .where('s.id IN (:...ids)', { ids })
      .andWhere('s.deleted_at IS NULL')
      .getRawMany<{ id: number }>();
    return rows.map((r) => Number(r.id));
  }
}
