import { Injectable } from '@nestjs/common';
import { Brackets, In, SelectQueryBuilder } from 'typeorm';
import { changeWhere, ConflictError, Page, pageOffset, PageRequest } from '@pos/kernel';
import { MAX_STOCK_LEVEL } from '../domain/stock-status';
import { SerialNumberRecord, StockLevelRecord, StockMovementRecord } from '../application/catalog.records';
import { InventoryFilter, InventoryRow, MovementFilter, NewMovement, StockRepository, StockSnapshotRow } from '../application/catalog.ports';
import { StoreScope } from '../application/store.ports';
import { TxRepository, utcDate } from '@pos/platform';
import { SerialNumberEntity, StockLevelEntity, StockMovementEntity } from './catalog.entities';

@Injectable()
export class TypeOrmStockRepository extends TxRepository implements StockRepository {
  private get levelsRepo() {
    return this.em.getRepository(StockLevelEntity);
  }

  async snapshot(warehouseIds: number[]): Promise<StockSnapshotRow[]> {
    if (!warehouseIds.length) return [];
    const rows = await this.levelsRepo
      .createQueryBuilder('s')
      .innerJoin('items', 'i', 'i.id = s.item_id AND i.deleted_at IS NULL')
      .leftJoin('categories', 'c', 'c.id = i.category_id')
      .select([
        's.item_id AS item_id',
        'i.sku AS sku',
        'i.name AS name',
        'i.category_id AS category_id',
        'c.name AS category_name',
        'i.cost AS cost',
        'i.is_active AS is_active',
        's.warehouse_id AS warehouse_id',
        's.quantity AS quantity',
        'COALESCE(s.reorder_level, i.reorder_level) AS reorder_level',
        'i.reorder_quantity AS reorder_quantity',
      ])
      .where('s.warehouse_id IN (:...warehouseIds)', { warehouseIds })
      .orderBy('s.item_id', 'ASC')
      .addOrderBy('s.warehouse_id', 'ASC')
      .getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({
      itemId: Number(r.item_id),
      sku: String(r.sku),
      name: String(r.name),
      categoryId: r.category_id === null ? null : Number(r.category_id),
      categoryName: r.category_name === null ? null : String(r.category_name),
      cost: Number(r.cost),
      isActive: Boolean(Number(r.is_active)),
      warehouseId: Number(r.warehouse_id),
      quantity: Number(r.quantity),
      reorderLevel: Number(r.reorder_level),
      reorderQuantity: Number(r.reorder_quantity),
    }));
  }

  movementsAfter(afterId: number, limit: number): Promise<StockMovementRecord[]> {
    return this.em
      .getRepository(StockMovementEntity)
      .createQueryBuilder('m')
      .where('m.id > :afterId', { afterId })
      .orderBy('m.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Read raw (every POS lookup and price check reads levels: no query builder, no entity hydration). */
  async levels(itemIds: number[], warehouseIds: number[]): Promise<StockLevelRecord[]> {
    if (!itemIds.length || !warehouseIds.length) return [];
    const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
    const rows = (await this.em.query(
      `SELECT id, item_id, warehouse_id, quantity, reorder_level, updated_at FROM stock_levels WHERE item_id IN (${marks(itemIds.length)}) AND warehouse_id IN (${marks(warehouseIds.length)})`,
      [...itemIds, ...warehouseIds],
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      id: Number(r.id),
      itemId: Number(r.item_id),
      warehouseId: Number(r.warehouse_id),
      quantity: Number(r.quantity),
      reorderLevel: r.reorder_level === null ? null : Number(r.reorder_level),
      updatedAt: utcDate.from(r.updated_at as Date | string) as Date,
    }));
  }

  levelsForItem(itemId: number): Promise<StockLevelRecord[]> {
    return this.levelsRepo.find({ where: { itemId }, order: { warehouseId: 'ASC' } });
  }

  private async ensureLevel(itemId: number, warehouseId: number, now: Date): Promise<void> {
    if (await this.levelsRepo.exists({ where: { itemId, warehouseId } })) return;
    // Two writers may race to create the row; the unique index keeps one, the loser just uses it.
    await this.levelsRepo.createQueryBuilder().insert().values({ itemId, warehouseId, quantity: 0, reorderLevel: null, updatedAt: now }).orIgnore().execute();
  }

  async move(
    m: NewMovement,
    floor: number | null,
    now: Date,
  ): Promise<{ before: number; after: number; movementId: number; reorderLevel: number | null } | null> {
    // One conditional UPDATE: atomic on both databases, and on MySQL it holds the row lock
    // until commit, so concurrent sellers of the last unit cannot both succeed. The row is
    // created (quantity 0) only when the UPDATE finds none.
    const update = () => this.changeLevel(m, floor, now);
    let result = await update();
    if (!result.affected && !(await this.levelsRepo.exists({ where: { itemId: m.itemId, warehouseId: m.warehouseId } }))) {
      await this.ensureLevel(m.itemId, m.warehouseId, now);
      result = await update();
    }
    if (!result.affected && m.delta > 0) {
      throw stockLimit(m);
    }
    if (!result.affected) return null;
    const level = await this.levelsRepo.findOneByOrFail({ itemId: m.itemId, warehouseId: m.warehouseId });
    const movement = await this.em.getRepository(StockMovementEntity).insert(movementRow(m, level.quantity, now));
    return { before: level.quantity - m.delta, after: level.quantity, movementId: Number(movement.identifiers[0]?.id), reorderLevel: level.reorderLevel };
  }

  /**
   * Several movements as one change in three statements whatever their number: the levels are
   * read and locked (SELECT ... FOR UPDATE on MySQL, in the unique index's (item, warehouse)
   * order, so concurrent sales lock them in one order; SQLite transactions are serialised), the
   * new quantities decided here (the floor and the level limits checked before anything is
   * written, so a refusal leaves nothing half done), then one UPDATE sets every level and one
   * INSERT writes every movement row with its balance. A missing level row is created first (at 0).
   */
  async moveMany(
    movements: NewMovement[],
    floor: number | null,
    now: Date,
  ): Promise<{ refused: number } | { moved: { before: number; after: number; movementId: number; reorderLevel: number | null }[] }> {
    const key = (itemId: number, warehouseId: number) => `${itemId}:${warehouseId}`;
    const pairs = [...new Map(movements.map((m) => [key(m.itemId, m.warehouseId), [m.itemId, m.warehouseId] as const])).values()];
    let levels = await this.lockLevels(pairs);
    if (levels.size < pairs.length) {
      for (const [itemId, warehouseId] of pairs) if (!levels.has(key(itemId, warehouseId))) await this.ensureLevel(itemId, warehouseId, now);
      levels = await this.lockLevels(pairs);
    }
    const quantity = new Map([...levels].map(([k, l]) => [k, l.quantity]));
    const before = new Array<number>(movements.length);
    for (const [i, m] of movements.entries()) {
      const k = key(m.itemId, m.warehouseId);
      const current = quantity.get(k)!;
      const next = current + Math.trunc(m.delta);
      if (next < -MAX_STOCK_LEVEL || next > MAX_STOCK_LEVEL) {
        if (m.delta > 0) throw stockLimit(m);
        return { refused: i };
      }
      if (floor !== null && next < floor) return { refused: i };
      before[i] = current;
      quantity.set(k, next);
    }
    const changed = [...levels].filter(([k, l]) => quantity.get(k) !== l.quantity);
    if (changed.length)
      await this.em.query(
        `UPDATE stock_levels SET quantity = CASE id ${changed.map(() => 'WHEN ? THEN ?').join(' ')} END, updated_at = ? WHERE id IN (${changed.map(() => '?').join(', ')})`,
        [...changed.flatMap(([k, l]) => [l.id, quantity.get(k)]), this.isSqlite ? sqliteTime(now) : now, ...changed.map(([, l]) => l.id)],
      );
    const after = movements.map((m, i) => before[i] + Math.trunc(m.delta));
    const movementIds = await this.insertRows(
      StockMovementEntity,
      movements.map((m, i) => movementRow(m, after[i], now)),
    );
    return {
      moved: movements.map((m, i) => ({
        before: before[i],
        after: after[i],
        movementId: movementIds[i],
        reorderLevel: levels.get(key(m.itemId, m.warehouseId))!.reorderLevel,
      })),
    };
  }

  /** The levels of (item, warehouse) pairs, locked for the rest of the transaction on MySQL. */
  private async lockLevels(pairs: (readonly [number, number])[]): Promise<Map<string, { id: number; quantity: number; reorderLevel: number | null }>> {
    const rows = (await this.em.query(
      `SELECT id, item_id, warehouse_id, quantity, reorder_level FROM stock_levels WHERE (item_id, warehouse_id) IN (${pairs.map(() => '(?, ?)').join(', ')}) ORDER BY item_id, warehouse_id${this.isSqlite ? '' : ' FOR UPDATE'}`,
      pairs.flat(),
    )) as Record<string, unknown>[];
    return new Map(
      rows.map((r) => [
        `${Number(r.item_id)}:${Number(r.warehouse_id)}`,
        { id: Number(r.id), quantity: Number(r.quantity), reorderLevel: r.reorder_level === null ? null : Number(r.reorder_level) },
      ]),
    );
  }

  /** The conditional UPDATE of `move`: refused (0 rows) below the floor or beyond the level limits. */
  private changeLevel(m: NewMovement, floor: number | null, now: Date) {
    const qb = this.levelsRepo
      .createQueryBuilder()
      .update(StockLevelEntity)
      .set({ quantity: () => `quantity + ${Math.trunc(m.delta)}`, updatedAt: now })
      .where('item_id = :itemId AND warehouse_id = :warehouseId', { itemId: m.itemId, warehouseId: m.warehouseId });
    if (floor !== null) qb.andWhere(`quantity + ${Math.trunc(m.delta)} >= :floor`, { floor });
    qb.andWhere(`quantity + ${Math.trunc(m.delta)} BETWEEN :minLevel AND :maxLevel`, { minLevel: -MAX_STOCK_LEVEL, maxLevel: MAX_STOCK_LEVEL });
    return qb.execute();
  }

  async setReorderLevel(itemId: number, warehouseId: number, reorderLevel: number | null, now: Date): Promise<void> {
    await this.ensureLevel(itemId, warehouseId, now);
    await this.levelsRepo.update({ itemId, warehouseId }, { reorderLevel, updatedAt: now });
  }

  private scoped<T extends object>(qb: SelectQueryBuilder<T>, scope: StoreScope, warehouseColumn: string): void {
    if (scope === 'all') return;
    const ids = scope.length ? [...scope] : [0];
    qb.andWhere(
      new Brackets((b) =>
        b
          .where(`${warehouseColumn} IN (SELECT w1.id FROM warehouses w1 WHERE w1.store_id IN (:...scopeIds))`, { scopeIds: ids })
          .orWhere(`${warehouseColumn} IN (SELECT ws.warehouse_id FROM warehouse_stores ws WHERE ws.store_id IN (:...scopeIds))`, { scopeIds: ids }),
      ),
    );
  }

  async inventory(filter: InventoryFilter, page: PageRequest): Promise<Page<InventoryRow>> {
    const reorder = 'COALESCE(s.reorder_level, i.reorder_level)';
    const qb = this.levelsRepo
      .createQueryBuilder('s')
      .innerJoin('items', 'i', 'i.id = s.item_id AND i.deleted_at IS NULL')
      .innerJoin('warehouses', 'w', 'w.id = s.warehouse_id AND w.deleted_at IS NULL')
      .select([
        's.id AS id',
        's.item_id AS item_id',
        'i.sku AS sku',
        'i.name AS item_name',
        's.warehouse_id AS warehouse_id',
        'w.name AS warehouse_name',
        'w.store_id AS store_id',
        's.quantity AS quantity',
        `${reorder} AS reorder_level`,
        's.updated_at AS updated_at',
      ]);
    this.scoped(qb, filter.scope, 's.warehouse_id');
    if (filter.storeId !== undefined) {
      qb.andWhere(
        new Brackets((b) =>
          b
            .where('w.store_id = :storeId', { storeId: filter.storeId })
            .orWhere('w.store_id IS NULL AND EXISTS (SELECT 1 FROM warehouse_stores ws2 WHERE ws2.warehouse_id = w.id AND ws2.store_id = :storeId)', {
              storeId: filter.storeId,
            }),
        ),
      );
    }
    if (filter.warehouseId !== undefined) qb.andWhere('s.warehouse_id = :warehouseId', { warehouseId: filter.warehouseId });
    if (filter.itemId !== undefined) qb.andWhere('s.item_id = :itemId', { itemId: filter.itemId });
    if (filter.status === 'out') qb.andWhere('s.quantity <= 0');
    if (filter.status === 'low') qb.andWhere(`s.quantity > 0 AND s.quantity <= ${reorder}`);
    if (filter.status === 'in_stock') qb.andWhere(`s.quantity > ${reorder}`);
    // change mode (issue 26): a range of the (updated_at, id) index, no count
    const change = filter.change;
    if (change) {
      const w = changeWhere('s', change);
      qb.andWhere(w.sql, w.params);
    }
    const total = change ? undefined : await qb.clone().select('COUNT(*)', 'n').getRawOne<{ n: string | number }>();
    if (change) qb.orderBy('s.updated_at', 'ASC').addOrderBy('s.id', 'ASC').limit(change.limit);
    else qb.orderBy('s.item_id', 'ASC').addOrderBy('s.warehouse_id', 'ASC').offset(pageOffset(page)).limit(page.perPage);
    const rows = await qb.getRawMany<Record<string, unknown>>();
    const toDate = (v: unknown) => (v instanceof Date ? v : new Date(String(v).replace(' ', 'T') + (String(v).endsWith('Z') ? '' : 'Z')));
    return new Page(
      rows.map((r) => ({
        id: Number(r.id),
        itemId: Number(r.item_id),
        sku: String(r.sku),
        itemName: String(r.item_name),
        warehouseId: Number(r.warehouse_id),
        warehouseName: String(r.warehouse_name),
        storeId: r.store_id === null ? null : Number(r.store_id),
        quantity: Number(r.quantity),
        reorderLevel: Number(r.reorder_level),
        updatedAt: toDate(r.updated_at),
      })),
      change ? rows.length : Number(total?.n ?? 0),
      change ? 1 : page.page,
      change ? change.limit : page.perPage,
    );
  }

  async movements(filter: MovementFilter, page: PageRequest): Promise<Page<StockMovementRecord>> {
    const qb = this.em.getRepository(StockMovementEntity).createQueryBuilder('m').where('1 = 1');
    this.scoped(qb, filter.scope, 'm.warehouse_id');
    if (filter.itemId !== undefined) qb.andWhere('m.item_id = :itemId', { itemId: filter.itemId });
    if (filter.warehouseId !== undefined) qb.andWhere('m.warehouse_id = :warehouseId', { warehouseId: filter.warehouseId });
    if (filter.type !== undefined) qb.andWhere('m.type = :type', { type: filter.type });
    if (filter.from) qb.andWhere('m.created_at >= :from', { from: filter.from });
    if (filter.to) qb.andWhere('m.created_at < :to', { to: filter.to });
    const [rows, total] = await qb.orderBy('m.id', 'DESC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  serials(itemId: number, filter: { warehouseId?: number; status?: string; serials?: string[] }): Promise<SerialNumberRecord[]> {
    return this.em.getRepository(SerialNumberEntity).find({
      where: {
        itemId,
        ...(filter.warehouseId !== undefined ? { warehouseId: filter.warehouseId } : {}),
        ...(filter.status !== undefined ? { status: filter.status } : {}),
        ...(filter.serials ? { serial: In(filter.serials.length ? filter.serials : ['\u0000']) } : {}),
      },
      order: { serial: 'ASC' },
      take: 1000,
    });
  }

  async addSerials(itemId: number, warehouseId: number, serials: string[], now: Date): Promise<void> {
    if (serials.length)
      await this.em
        .getRepository(SerialNumberEntity)
        .insert(serials.map((serial) => ({ itemId, warehouseId, serial, status: 'in_stock', saleId: null, createdAt: now, updatedAt: now })));
  }

  async updateSerials(ids: number[], changes: { warehouseId?: number | null; status?: string; saleId?: number | null }, now: Date): Promise<void> {
    if (ids.length) await this.em.getRepository(SerialNumberEntity).update({ id: In(ids) }, { ...changes, updatedAt: now });
  }
}

const stockLimit = (m: NewMovement) =>
  new ConflictError('stock_limit', `The stock level of item ${m.itemId} in warehouse ${m.warehouseId} would exceed ${MAX_STOCK_LEVEL} units.`);

/** The stock_movements row of a movement that left the level at `balanceAfter`. */
const movementRow = (m: NewMovement, balanceAfter: number, now: Date) => ({
  itemId: m.itemId,
  warehouseId: m.warehouseId,
  type: m.type,
  quantity: m.delta,
  balanceAfter,
  unitCost: m.unitCost,
  referenceType: m.referenceType,
  referenceId: m.referenceId,
  userId: m.userId,
  notes: m.notes,
  createdAt: now,
});

/** A time as TypeORM stores it in SQLite (UTC text, milliseconds) for a raw statement. */
const sqliteTime = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');
