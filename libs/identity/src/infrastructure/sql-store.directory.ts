import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { StoreDirectory } from '../application/ports';

/**
 * Reads store ids and names straight from the stores table. Identity needs only these two facts,
 * so it reads them itself rather than depending on the catalog module (which depends on
 * identity's principal for store scoping).
 */
@Injectable()
export class SqlStoreDirectory extends TxRepository implements StoreDirectory {
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
