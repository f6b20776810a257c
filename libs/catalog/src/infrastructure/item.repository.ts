import { Injectable } from '@nestjs/common';
import { Brackets, In, IsNull } from 'typeorm';
import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { ItemBarcodeRecord, ItemRecord, ItemUnitRecord } from '../application/catalog.records';
import { ItemChangeQuery, ItemFilter, ItemRepository, ItemWrite, UnitWrite } from '../application/catalog.ports';
import { TxRepository } from '@pos/platform';
import { ItemBarcodeEntity, ItemEntity, ItemUnitEntity } from './catalog.entities';

@Injectable()
export class TypeOrmItemRepository extends TxRepository implements ItemRepository {
  private get repo() {
    return this.em.getRepository(ItemEntity);
  }

  async list(filter: ItemFilter, page: PageRequest): Promise<Page<ItemRecord>> {
    const qb = this.repo.createQueryBuilder('i').where('i.deleted_at IS NULL');
    if (filter.isActive !== undefined) qb.andWhere('i.is_active = :active', { active: filter.isActive });
    if (filter.categoryId !== undefined) qb.andWhere('i.category_id = :categoryId', { categoryId: filter.categoryId });
    if (filter.q) {
      qb.andWhere(
        // The barcode match is a constant subquery (one index lookup), not correlated per row.
        `(i.name LIKE :contains${this.esc} OR i.sku LIKE :prefix${this.esc} OR i.id IN (SELECT b.item_id FROM item_barcodes b WHERE b.barcode = :exact))`,
        { contains: this.like(filter.q, 'contains'), prefix: this.like(filter.q, 'prefix'), exact: filter.q },
      );
    }
    const [rows, total] = await qb.orderBy('i.name', 'ASC').addOrderBy('i.id', 'ASC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  async search(q: string, options: { categoryId?: number; limit: number }): Promise<ItemRecord[]> {
    const base = () => {
      const qb = this.repo.createQueryBuilder('i').where('i.deleted_at IS NULL').andWhere('i.is_active = :active', { active: true });
      if (options.categoryId !== undefined) qb.andWhere('i.category_id = :categoryId', { categoryId: options.categoryId });
      return qb;
    };
    // Two point lookups on the unique SKU and barcode indexes (an OR of the two makes MySQL
    // scan the table), then names by prefix on the name index.
    const barcodeItemIds = (await this.em.getRepository(ItemBarcodeEntity).find({ select: { itemId: true }, where: { barcode: q } })).map((b) => b.itemId);
    const exact = await base()
      .andWhere(
        barcodeItemIds.length ? new Brackets((b) => b.where('i.sku = :q', { q }).orWhere('i.id IN (:...barcodeItemIds)', { barcodeItemIds })) : 'i.sku = :q',
        { q },
      )
      .orderBy('i.id', 'ASC')
      .take(options.limit)
      .getMany();
    const found = new Map(exact.map((i) => [i.id, i]));
    const more = async (where: string, params: Record<string, string>) => {
      if (found.size >= options.limit) return;
      const qb = base().andWhere(where, params).orderBy('i.name', 'ASC').addOrderBy('i.id', 'ASC').take(options.limit);
      if (found.size) qb.andWhere('i.id NOT IN (:...seen)', { seen: [...found.keys()] });
      for (const row of await qb.getMany()) if (found.size < options.limit) found.set(row.id, row);
    };
    await more(`i.name LIKE :prefix${this.esc}`, { prefix: this.like(q, 'prefix') });
    if (exact.length === 0)
      await more(`(i.name LIKE :contains${this.esc} OR i.sku LIKE :skuPrefix${this.esc})`, {
        contains: this.like(q, 'contains'),
        skuPrefix: this.like(q, 'prefix'),
      });
    return [...found.values()];
  }

  find(id: number, withDeleted = false): Promise<ItemRecord | null> {
    return this.repo.findOneBy(withDeleted ? { id } : { id, deletedAt: IsNull() });
  }

  findByIds(ids: number[], withDeleted = false): Promise<ItemRecord[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo.findBy(withDeleted ? { id: In(ids) } : { id: In(ids), deletedAt: IsNull() });
  }

  async itemIdsByBarcode(barcode: string): Promise<number[]> {
    const rows = await this.em.getRepository(ItemBarcodeEntity).findBy({ barcode });
    return [...new Set(rows.map((r) => r.itemId))];
  }

  async setBasePrices(changes: { itemId: number; price: number }[], now: Date): Promise<void> {
    for (const c of changes) await this.repo.update({ id: c.itemId }, { basePrice: c.price, updatedAt: now });
  }

  findBySku(sku: string): Promise<ItemRecord | null> {
    return this.repo.createQueryBuilder('i').where('LOWER(i.sku) = LOWER(:sku)', { sku }).getOne();
  }

  async findByName(name: string, excludeId?: number): Promise<ItemRecord | null> {
    const qb = this.repo.createQueryBuilder('i').where('i.deleted_at IS NULL').andWhere('LOWER(i.name) = LOWER(:name)', { name });
    if (excludeId !== undefined) qb.andWhere('i.id <> :excludeId', { excludeId });
    return qb.getOne();
  }

  barcodes(itemIds: number[]): Promise<ItemBarcodeRecord[]> {
    return itemIds.length ? this.em.getRepository(ItemBarcodeEntity).find({ where: { itemId: In(itemIds) }, order: { id: 'ASC' } }) : Promise.resolve([]);
  }

  units(itemIds: number[]): Promise<ItemUnitRecord[]> {
    return itemIds.length ? this.em.getRepository(ItemUnitEntity).find({ where: { itemId: In(itemIds) }, order: { id: 'ASC' } }) : Promise.resolve([]);
  }

  async barcodesTaken(barcodes: string[], excludeItemId?: number): Promise<string[]> {
    if (!barcodes.length) return [];
    const rows = await this.em
      .getRepository(ItemBarcodeEntity)
      .createQueryBuilder('b')
      .where('LOWER(b.barcode) IN (:...codes)', { codes: barcodes.map((b) => b.toLowerCase()) })
      .getMany();
    return rows.filter((r) => r.itemId !== excludeItemId).map((r) => r.barcode);
  }

  create(item: ItemWrite, now: Date): Promise<ItemRecord> {
    return this.repo.save(this.repo.create({ ...item, createdAt: now, updatedAt: now, deletedAt: null }));
  }

  async update(id: number, item: Partial<ItemWrite>, now: Date): Promise<void> {
    await this.repo.update({ id }, { ...item, updatedAt: now });
  }

  async replaceBarcodesAndUnits(itemId: number, barcodes: string[] | undefined, units: UnitWrite[] | undefined, now: Date): Promise<void> {
    const codes = this.em.getRepository(ItemBarcodeEntity);
    if (units !== undefined) {
      await codes.delete({ itemId, itemUnitId: In((await this.units([itemId])).map((u) => u.id).concat([-1])) });
      await this.em.getRepository(ItemUnitEntity).delete({ itemId });
      for (const u of units) {
        const saved = await this.em
          .getRepository(ItemUnitEntity)
          .save({ itemId, name: u.name, factor: u.factor, price: u.price, createdAt: now, updatedAt: now });
        if (u.barcode) await codes.insert({ itemId, barcode: u.barcode, itemUnitId: saved.id });
      }
    }
    if (barcodes !== undefined) {
      await codes.delete({ itemId, itemUnitId: IsNull() });
      if (barcodes.length) await codes.insert(barcodes.map((barcode) => ({ itemId, barcode, itemUnitId: null })));
    }
  }

  async softDelete(id: number, at: Date): Promise<void> {
    await this.repo.update({ id }, { deletedAt: at, updatedAt: at, isActive: false });
  }

  activePage(afterId: number, limit: number): Promise<ItemRecord[]> {
    return this.repo
      .createQueryBuilder('i')
      .where('i.id > :afterId', { afterId })
      .andWhere('i.deleted_at IS NULL')
      .andWhere('i.is_active = :active', { active: true })
      .orderBy('i.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /**
   * One UNION of the two (or three) id sources, each a range scan of its own index (items by
   * updated_at, stock by warehouse and updated_at) cut at the cursor, then paged by id.
   */
  async changedIds(q: ItemChangeQuery): Promise<number[]> {
    const since = this.isSqlite ? q.since.toISOString().replace('T', ' ').replace('Z', '') : q.since;
    const list = (ids: number[]) => ids.map(() => '?').join(', ');
    const parts = ['SELECT id FROM items WHERE updated_at >= ? AND id > ?'];
    const params: unknown[] = [since, q.afterId];
    if (q.warehouseIds.length) {
      parts.push(`SELECT item_id AS id FROM stock_levels WHERE warehouse_id IN (${list(q.warehouseIds)}) AND updated_at >= ? AND item_id > ?`);
      params.push(...q.warehouseIds, since, q.afterId);
    }
    if (q.newWarehouseIds.length) {
      parts.push(`SELECT item_id AS id FROM stock_levels WHERE warehouse_id IN (${list(q.newWarehouseIds)}) AND item_id > ?`);
      params.push(...q.newWarehouseIds, q.afterId);
    }
    const rows = (await this.em.query(`SELECT u.id FROM (${parts.join(' UNION ')}) u ORDER BY u.id LIMIT ?`, [...params, q.limit])) as {
      id: number | string;
    }[];
    return rows.map((r) => Number(r.id));
  }
}
