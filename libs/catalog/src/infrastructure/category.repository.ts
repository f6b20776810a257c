import { Injectable } from '@nestjs/common';
import { IsNull, Not } from 'typeorm';
import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { CategoryRecord } from '../application/catalog.records';
import { CategoryFilter, CategoryRepository } from '../application/catalog.ports';
import { TxRepository } from '@pos/platform';
import { CategoryEntity, ItemEntity } from './catalog.entities';

@Injectable()
export class TypeOrmCategoryRepository extends TxRepository implements CategoryRepository {
  async list(filter: CategoryFilter, page: PageRequest): Promise<Page<CategoryRecord>> {
    const qb = this.em.getRepository(CategoryEntity).createQueryBuilder('c').where('c.deleted_at IS NULL');
    if (filter.parentId === null) qb.andWhere('c.parent_id IS NULL');
    else if (filter.parentId !== undefined) qb.andWhere('c.parent_id = :parentId', { parentId: filter.parentId });
    if (filter.isActive !== undefined) qb.andWhere('c.is_active = :active', { active: filter.isActive });
    if (filter.q) qb.andWhere(`c.name LIKE :q${this.esc}`, { q: this.like(filter.q, 'contains') });
    const [rows, total] = await qb
      .orderBy('c.sort_order', 'ASC')
      .addOrderBy('c.name', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .skip(pageOffset(page))
      .take(page.perPage)
      .getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  all(): Promise<CategoryRecord[]> {
    return this.em.getRepository(CategoryEntity).find({ where: { deletedAt: IsNull() }, order: { sortOrder: 'ASC', name: 'ASC', id: 'ASC' } });
  }

  find(id: number): Promise<CategoryRecord | null> {
    return this.em.getRepository(CategoryEntity).findOneBy({ id, deletedAt: IsNull() });
  }

  findByIds(ids: number[]): Promise<CategoryRecord[]> {
    return this.findByIdsRaw(CategoryEntity, ids);
  }

  async findSibling(name: string, parentId: number | null, excludeId?: number): Promise<CategoryRecord | null> {
    const qb = this.em.getRepository(CategoryEntity).createQueryBuilder('c').where('c.deleted_at IS NULL').andWhere('LOWER(c.name) = LOWER(:name)', { name });
    if (parentId === null) qb.andWhere('c.parent_id IS NULL');
    else qb.andWhere('c.parent_id = :parentId', { parentId });
    if (excludeId !== undefined) qb.andWhere('c.id <> :excludeId', { excludeId });
    return qb.getOne();
  }

  async itemCounts(categoryIds: number[]): Promise<Map<number, number>> {
    if (!categoryIds.length) return new Map();
    const rows = await this.em
      .getRepository(ItemEntity)
      .createQueryBuilder('i')
      .select('i.category_id', 'category_id')
      .addSelect('COUNT(*)', 'n')
      .where('i.category_id IN (:...ids)', { ids: categoryIds })
      .andWhere('i.deleted_at IS NULL')
      .groupBy('i.category_id')
      .getRawMany<{ category_id: number; n: string | number }>();
    return new Map(rows.map((r) => [Number(r.category_id), Number(r.n)]));
  }

  childCount(id: number): Promise<number> {
    return this.em.getRepository(CategoryEntity).countBy({ parentId: id, deletedAt: IsNull(), id: Not(id) });
  }

  save(category: Partial<CategoryRecord> & { name: string }): Promise<CategoryRecord> {
    return this.em.getRepository(CategoryEntity).save(this.em.getRepository(CategoryEntity).create(category));
  }

  async softDelete(id: number, at: Date): Promise<void> {
    await this.em.getRepository(CategoryEntity).update({ id }, { deletedAt: at, updatedAt: at });
  }

  syncPage(afterId: number, limit: number, changedSince?: Date): Promise<CategoryRecord[]> {
    const qb = this.em.getRepository(CategoryEntity).createQueryBuilder('c').where('c.id > :afterId', { afterId });
    if (changedSince) qb.andWhere('c.updated_at >= :since', { since: changedSince });
    else qb.andWhere('c.deleted_at IS NULL');
    return qb.orderBy('c.id', 'ASC').limit(limit).getMany();
  }
}
