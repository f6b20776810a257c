import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { TaxClassDirectory } from '../application/catalog.ports';

/**
 * Reads tax class ids, names and codes straight from the pricing context's tax_classes table:
 * the catalog needs only these facts about the class an item points at, and cannot depend on
 * the pricing module (which depends on the catalog). Read only, never written here.
 */
@Injectable()
export class SqlTaxClassDirectory extends TxRepository implements TaxClassDirectory {
  async find(ids: number[]): Promise<{ id: number; name: string; code: string }[]> {
    if (!ids.length) return [];
    const rows = await this.em
      .createQueryBuilder()
      .select(['t.id AS id', 't.name AS name', 't.code AS code'])
      .from('tax_classes', 't')
      .where('t.id IN (:...ids)', { ids })
      .getRawMany<{ id: number; name: string; code: string }>();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, code: r.code }));
  }
}
