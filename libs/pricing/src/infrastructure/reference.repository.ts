import { Injectable } from '@nestjs/common';
import { Brackets, In, IsNull } from 'typeorm';
import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { StoreScope } from '@pos/catalog';
import { TxRepository } from '@pos/platform';
import { CurrencyRecord, PriceBookEntryRecord, PriceBookRecord, TaxClassRecord, TaxRateRecord } from '../application/reference.records';
import { ReferenceRepository } from '../application/reference.ports';
import { CurrencyEntity, PriceBookEntity, PriceBookEntryEntity, TaxClassEntity, TaxRateEntity } from './reference.entities';

type BookWithScope = PriceBookRecord & { storeIds: number[]; customerGroupIds: number[] };

@Injectable()
export class TypeOrmReferenceRepository extends TxRepository implements ReferenceRepository {
  currencies(): Promise<CurrencyRecord[]> {
    return this.em.getRepository(CurrencyEntity).find({ where: { isActive: true }, order: { isBase: 'DESC', code: 'ASC' } });
  }

  currency(idOrCode: number | string): Promise<CurrencyRecord | null> {
    return this.em.getRepository(CurrencyEntity).findOneBy(typeof idOrCode === 'number' ? { id: idOrCode } : { code: idOrCode });
  }

  taxClasses(ids?: number[]): Promise<TaxClassRecord[]> {
    return this.em.getRepository(TaxClassEntity).find({ where: ids ? { id: In(ids) } : {}, order: { id: 'ASC' } });
  }

  async taxRates(taxClassIds: number[], storeId: number | null): Promise<TaxRateRecord[]> {
    if (!taxClassIds.length) return [];
    const qb = this.em
      .getRepository(TaxRateEntity)
      .createQueryBuilder('r')
      .where('r.tax_class_id IN (:...ids)', { ids: taxClassIds })
      .andWhere('r.is_active = :a', { a: true });
    if (storeId === null) qb.andWhere('r.store_id IS NULL');
    else qb.andWhere('(r.store_id IS NULL OR r.store_id = :storeId)', { storeId });
    return qb.orderBy('r.id', 'ASC').getMany();
  }

  private async withScope(books: PriceBookRecord[]): Promise<BookWithScope[]> {
    if (!books.length) return [];
    const ids = books.map((b) => b.id);
    const [stores, groups] = await Promise.all([
      this.em.query(`SELECT price_book_id, store_id FROM price_book_stores WHERE price_book_id IN (${ids.map(() => '?').join(',')})`, ids) as Promise<
        { price_book_id: number; store_id: number }[]
      >,
      this.em.query(
        `SELECT price_book_id, customer_group_id FROM price_book_customer_groups WHERE price_book_id IN (${ids.map(() => '?').join(',')})`,
        ids,
      ) as Promise<{ price_book_id: number; customer_group_id: number }[]>,
    ]);
    return books.map((b) => ({
      ...b,
      storeIds: stores.filter((s) => Number(s.price_book_id) === b.id).map((s) => Number(s.store_id)),
      customerGroupIds: groups.filter((g) => Number(g.price_book_id) === b.id).map((g) => Number(g.customer_group_id)),
    }));
  }

  async priceBooks(scope: StoreScope, page: PageRequest): Promise<Page<BookWithScope>> {
    const qb = this.em.getRepository(PriceBookEntity).createQueryBuilder('b').where('b.deleted_at IS NULL');
    if (scope !== 'all') {
      qb.andWhere(
        '(NOT EXISTS (SELECT 1 FROM price_book_stores s WHERE s.price_book_id = b.id) OR EXISTS (SELECT 1 FROM price_book_stores s2 WHERE s2.price_book_id = b.id AND s2.store_id IN (:...scope)))',
        { scope: scope.length ? [...scope] : [0] },
      );
    }
    const [rows, total] = await qb.orderBy('b.priority', 'DESC').addOrderBy('b.id', 'ASC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(await this.withScope(rows), total, page.page, page.perPage);
  }

  async priceBook(id: number): Promise<BookWithScope | null> {
    const book = await this.em.getRepository(PriceBookEntity).findOneBy({ id, deletedAt: IsNull() });
    return book ? (await this.withScope([book]))[0] : null;
  }

  /** Of live items only: a deleted item's entries stay (its sales keep their prices) but are not listed. */
  priceBookEntries(priceBookId: number): Promise<PriceBookEntryRecord[]> {
    return this.em
      .getRepository(PriceBookEntryEntity)
      .createQueryBuilder('e')
      .innerJoin('items', 'i', 'i.id = e.item_id AND i.deleted_at IS NULL')
      .where('e.price_book_id = :priceBookId', { priceBookId })
      .orderBy('e.item_id', 'ASC')
      .addOrderBy('e.min_quantity', 'ASC')
      .getMany();
  }

  async priceBooksForStore(storeId: number, currencyCode: string): Promise<BookWithScope[]> {
    const books = await this.em
      .getRepository(PriceBookEntity)
      .createQueryBuilder('b')
      .where('b.deleted_at IS NULL')
      .andWhere('b.is_active = :active', { active: true })
      .andWhere('b.currency_code = :currencyCode', { currencyCode })
      .andWhere(
        '(NOT EXISTS (SELECT 1 FROM price_book_stores s WHERE s.price_book_id = b.id) OR EXISTS (SELECT 1 FROM price_book_stores s2 WHERE s2.price_book_id = b.id AND s2.store_id = :storeId))',
        { storeId },
      )
      .orderBy('b.id', 'ASC')
      .getMany();
    return this.withScope(books);
  }

  async priceBookEntryPage(
    bookIds: number[],
    page: { afterId: number; limit: number; changedSince?: Date; wholeBookIds?: number[] },
  ): Promise<(PriceBookEntryRecord & { updatedAt: Date })[]> {
    if (!bookIds.length) return [];
    const qb = this.em
      .getRepository(PriceBookEntryEntity)
      .createQueryBuilder('e')
      .where('e.price_book_id IN (:...bookIds)', { bookIds })
      .andWhere('e.id > :afterId', { afterId: page.afterId });
    const since = page.changedSince;
    if (since) {
      const whole = page.wholeBookIds ?? [];
      qb.andWhere(
        new Brackets((b) => {
          b.where('e.updated_at >= :since', { since });
          if (whole.length) b.orWhere('e.price_book_id IN (:...whole)', { whole });
        }),
      );
    }
    return qb.orderBy('e.id', 'ASC').limit(page.limit).getMany();
  }

  async priceBookStores(ids: number[]): Promise<Map<number, number[]>> {
    if (!ids.length) return new Map();
    const books = await this.em.getRepository(PriceBookEntity).find({ select: { id: true }, where: { id: In(ids), deletedAt: IsNull() } });
    const found = books.map((b) => b.id);
    const stores = found.length
      ? ((await this.em.query(`SELECT price_book_id, store_id FROM price_book_stores WHERE price_book_id IN (${found.map(() => '?').join(',')})`, found)) as {
          price_book_id: number | string;
          store_id: number | string;
        }[])
      : [];
    const scope = new Map(found.map((id) => [id, [] as number[]]));
    for (const s of stores) scope.get(Number(s.price_book_id))?.push(Number(s.store_id));
    return scope;
  }

  async upsertPriceBookEntries(entries: { priceBookId: number; itemId: number; price: number; minQuantity: number }[], now: Date): Promise<void> {
    const repo = this.em.getRepository(PriceBookEntryEntity);
    for (const e of entries) {
      const existing = await repo.findOneBy({ priceBookId: e.priceBookId, itemId: e.itemId, minQuantity: e.minQuantity });
      if (existing) await repo.update({ id: existing.id }, { price: e.price, updatedAt: now });
      else await repo.insert({ ...e, createdAt: now, updatedAt: now });
    }
    const books = [...new Set(entries.map((e) => e.priceBookId))];
    if (books.length) await this.em.getRepository(PriceBookEntity).update({ id: In(books) }, { updatedAt: now });
  }
}
