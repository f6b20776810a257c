import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { Brackets, In, IsNull } from 'typeorm';
import { ChangeRead, changeWhere, Page, pageOffset, PageRequest } from '@pos/kernel';
import { StoreRepository, StoreScope, WarehouseFilter } from '../application/store.ports';
import { PaymentMethodEntity, StoreEntity, StorePaymentMethodEntity, WarehouseEntity, WarehouseStoreEntity } from './store.entities';

@Injectable()
export class TypeOrmStoreRepository extends TxRepository implements StoreRepository {
  async listStores(scope: StoreScope, page: PageRequest, change?: ChangeRead): Promise<Page<StoreEntity>> {
    if (scope !== 'all' && scope.length === 0) return new Page([], 0, page.page, page.perPage);
    if (change) {
      const w = changeWhere('s', change);
      const qb = this.em.getRepository(StoreEntity).createQueryBuilder('s').where('s.deleted_at IS NULL').andWhere(w.sql, w.params);
      if (scope !== 'all') qb.andWhere('s.id IN (:...scope)', { scope: [...scope] });
      const rows = await qb.orderBy('s.updated_at', 'ASC').addOrderBy('s.id', 'ASC').take(change.limit).getMany();
      return new Page(rows, rows.length, 1, change.limit);
    }
    const [rows, total] = await this.em.getRepository(StoreEntity).findAndCount({
      where: { deletedAt: IsNull(), ...(scope === 'all' ? {} : { id: In([...scope]) }) },
      order: { id: 'ASC' },
      skip: pageOffset(page),
      take: page.perPage,
    });
    return new Page(rows, total, page.page, page.perPage);
  }

  findStore(id: number): Promise<StoreEntity | null> {
    return this.em.getRepository(StoreEntity).findOneBy({ id, deletedAt: IsNull() });
  }

  async warehousesByStore(storeIds: number[], includeServing: boolean): Promise<Map<number, WarehouseEntity[]>> {
    const out = new Map<number, WarehouseEntity[]>(storeIds.map((id) => [id, []]));
    if (storeIds.length === 0) return out;
    const own = await this.em
      .getRepository(WarehouseEntity)
      .find({ where: { storeId: In(storeIds), isActive: true, deletedAt: IsNull() }, order: { id: 'ASC' } });
    for (const w of own) out.get(w.storeId!)!.push(w);
    if (includeServing) {
      const links = await this.em.getRepository(WarehouseStoreEntity).findBy({ storeId: In(storeIds) });
      if (links.length) {
        const serving = await this.em.getRepository(WarehouseEntity).find({
          where: { id: In(links.map((l) => l.warehouseId)), isActive: true, deletedAt: IsNull() },
          order: { id: 'ASC' },
        });
        for (const link of links) {
          const w = serving.find((s) => s.id === link.warehouseId);
          if (w) out.get(link.storeId)!.push(w);
        }
      }
    }
    return out;
  }

  async paymentMethodsByStore(storeIds: number[]): Promise<Map<number, PaymentMethodEntity[]>> {
    const out = new Map<number, PaymentMethodEntity[]>(storeIds.map((id) => [id, []]));
    if (storeIds.length === 0) return out;
    const links = await this.em.getRepository(StorePaymentMethodEntity).findBy({ storeId: In(storeIds) });
    if (!links.length) return out;
    const methods = await this.em.getRepository(PaymentMethodEntity).find({
      where: { id: In(links.map((l) => l.paymentMethodId)), isActive: true, deletedAt: IsNull() },
      order: { sortOrder: 'ASC', id: 'ASC' },
    });
    for (const m of methods) for (const l of links) if (l.paymentMethodId === m.id) out.get(l.storeId)!.push(m);
    return out;
  }

  async listWarehouses(filter: WarehouseFilter, page: PageRequest): Promise<Page<WarehouseEntity>> {
    const qb = this.em.getRepository(WarehouseEntity).createQueryBuilder('w').where('w.deleted_at IS NULL');
    if (filter.activeOnly !== false) qb.andWhere('w.is_active = :active', { active: true });
    if (filter.scope !== 'all') {
      const scope = filter.scope.length ? [...filter.scope] : [0];
      qb.andWhere(
        new Brackets((b) =>
          b
            .where('w.store_id IN (:...scope)', { scope })
            .orWhere('w.store_id IS NULL AND EXISTS (SELECT 1 FROM warehouse_stores ws WHERE ws.warehouse_id = w.id AND ws.store_id IN (:...scope))', {
              scope,
            }),
        ),
      );
    }
    if (filter.standaloneOnly) qb.andWhere('w.store_id IS NULL');
    if (filter.storeId !== undefined) {
      qb.andWhere(
        new Brackets((b) => {
          b.where('w.store_id = :storeId', { storeId: filter.storeId });
          if (filter.includeServing || filter.standaloneOnly) {
            b.orWhere('w.store_id IS NULL AND EXISTS (SELECT 1 FROM warehouse_stores ws2 WHERE ws2.warehouse_id = w.id AND ws2.store_id = :storeId)', {
              storeId: filter.storeId,
            });
          }
        }),
      );
    }
    if (filter.change) {
      const w = changeWhere('w', filter.change);
      const rows = await qb.andWhere(w.sql, w.params).orderBy('w.updated_at', 'ASC').addOrderBy('w.id', 'ASC').take(filter.change.limit).getMany();
      return new Page(rows, rows.length, 1, filter.change.limit);
    }
    const [rows, total] = await qb.orderBy('w.id', 'ASC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  findWarehouse(id: number): Promise<WarehouseEntity | null> {
    return this.em.getRepository(WarehouseEntity).findOneBy({ id, deletedAt: IsNull() });
  }

  async storesOfWarehouse(warehouseId: number): Promise<number[]> {
    const w = await this.findWarehouse(warehouseId);
    if (!w) return [];
    if (w.storeId !== null) return [w.storeId];
    return (await this.em.getRepository(WarehouseStoreEntity).findBy({ warehouseId })).map((l) => l.storeId);
  }

  async listPaymentMethods(scope: StoreScope, page: PageRequest): Promise<Page<PaymentMethodEntity>> {
    const qb = this.em.getRepository(PaymentMethodEntity).createQueryBuilder('p').where('p.deleted_at IS NULL').andWhere('p.is_active = :a', { a: true });
    if (scope !== 'all') {
      qb.andWhere('EXISTS (SELECT 1 FROM store_payment_methods spm WHERE spm.payment_method_id = p.id AND spm.store_id IN (:...scope))', {
        scope: scope.length ? [...scope] : [0],
      });
    }
    const [rows, total] = await qb.orderBy('p.sort_order', 'ASC').addOrderBy('p.id', 'ASC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  findPaymentMethod(id: number): Promise<PaymentMethodEntity | null> {
    return this.em.getRepository(PaymentMethodEntity).findOneBy({ id, deletedAt: IsNull() });
  }
}
