import { Injectable } from '@nestjs/common';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber, utcDate } from '@pos/platform/database/columns';
import { TxRepository } from '@pos/platform';
import { BasePriceChange, ItemPriceHistoryRepository } from '../application/item-price-history';

const money = { type: 'bigint' as const, transformer: bigintToNumber };

@Entity('item_price_changes')
export class ItemPriceChangeEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'item_id' }) itemId!: number;
  @Column({ name: 'old_price', ...money, nullable: true }) oldPrice!: number | null;
  @Column({ name: 'new_price', ...money }) newPrice!: number;
  @Column({ name: 'changed_at', type: 'datetime', transformer: utcDate }) changedAt!: Date;
}

@Injectable()
export class TypeOrmItemPriceHistoryRepository extends TxRepository implements ItemPriceHistoryRepository {
  async lockBasePrices(itemIds: number[]): Promise<Map<number, number>> {
    const ids = [...new Set(itemIds)].sort((a, b) => a - b);
    const out = new Map<number, number>();
    for (let i = 0; i < ids.length; i += 1000) {
      const part = ids.slice(i, i + 1000);
      const rows = (await this.em.query(
        `SELECT id, base_price FROM items WHERE id IN (${part.map(() => '?').join(', ')}) ORDER BY id${this.isSqlite ? '' : ' FOR UPDATE'}`,
        part,
      )) as { id: number | string; base_price: number | string }[];
      for (const r of rows) out.set(Number(r.id), Number(r.base_price));
    }
    return out;
  }

  async record(changes: BasePriceChange[], at: Date): Promise<void> {
    for (let i = 0; i < changes.length; i += 500) {
      await this.insertRows(
        ItemPriceChangeEntity,
        changes.slice(i, i + 500).map((c) => ({ itemId: c.itemId, oldPrice: c.oldPrice, newPrice: c.newPrice, changedAt: at })),
      );
    }
  }

  async firstChangesAfter(itemIds: number[], at: Date): Promise<Map<number, BasePriceChange>> {
    const out = new Map<number, BasePriceChange>();
    const after = this.isSqlite ? at.toISOString().replace('T', ' ').replace('Z', '') : at;
    for (let i = 0; i < itemIds.length; i += 1000) {
      const part = itemIds.slice(i, i + 1000);
      // Read by (item_id, changed_at): only the changes since `at`, which offline sales keep recent.
      const rows = await this.selectRaw(ItemPriceChangeEntity, `item_id IN (${part.map(() => '?').join(', ')}) AND changed_at > ? ORDER BY changed_at, id`, [
        ...part,
        after,
      ]);
      for (const r of rows) if (!out.has(r.itemId)) out.set(r.itemId, { itemId: r.itemId, oldPrice: r.oldPrice, newPrice: r.newPrice });
    }
    return out;
  }
}
