import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { In, IsNull } from 'typeorm';
import { changeWhere, Page, pageOffset, PageRequest } from '@pos/kernel';
import { CustomerFilter, CustomerGroupRecord, CustomerRecord, CustomerRepository, CustomerWrite } from '../application/customer.ports';
import { CustomerEntity, CustomerGroupEntity } from './customer.entities';

/** Every write of a customers row moves its version on (CustomerRecord.version). */
const NEXT_VERSION = () => 'version + 1';

@Injectable()
export class TypeOrmCustomerRepository extends TxRepository implements CustomerRepository {
  private get repo() {
    return this.em.getRepository(CustomerEntity);
  }

  async list(filter: CustomerFilter, page: PageRequest): Promise<Page<CustomerRecord>> {
    // Change mode serves deleted customers too (anonymised): a partner must learn of the deletion.
    const qb = this.repo.createQueryBuilder('c').where(filter.change ? '1 = 1' : 'c.deleted_at IS NULL');
    if (filter.status) qb.andWhere('c.status = :status', { status: filter.status });
    if (filter.customerGroupId !== undefined) qb.andWhere('c.customer_group_id = :g', { g: filter.customerGroupId });
    if (filter.excludeWalkIn) qb.andWhere('c.is_walk_in = :walkIn', { walkIn: false });
    if (filter.q) {
      qb.andWhere(`(c.name LIKE :q${this.esc} OR c.email LIKE :q${this.esc} OR c.phone LIKE :q${this.esc} OR c.address LIKE :q${this.esc})`, {
        q: this.like(filter.q, 'contains'),
      });
    }
    if (filter.change) {
      // (updated_at, id) order up to the horizon, no count: a range of the customers' updated_at index.
      const w = changeWhere('c', filter.change);
      const rows = await qb.andWhere(w.sql, w.params).orderBy('c.updated_at', 'ASC').addOrderBy('c.id', 'ASC').take(filter.change.limit).getMany();
      return new Page(rows, rows.length, 1, filter.change.limit);
    }
    const [rows, total] = await qb.orderBy('c.name', 'ASC').addOrderBy('c.id', 'ASC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  async search(q: string, limit: number): Promise<CustomerRecord[]> {
    const lower = q.toLowerCase();
    const rows = await this.repo
      .createQueryBuilder('c')
      .where('c.deleted_at IS NULL')
      .andWhere(`(c.name LIKE :q${this.esc} OR c.email LIKE :q${this.esc} OR c.phone LIKE :q${this.esc} OR c.address LIKE :q${this.esc})`, {
        q: this.like(q, 'contains'),
      })
      .orderBy('c.name', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .take(Math.max(limit * 4, limit))
      .getMany();
    // Exact email or phone first: the cashier typed the whole thing.
    const exact = (c: CustomerRecord) => c.email === lower || c.phone === q;
    return [...rows.filter(exact), ...rows.filter((c) => !exact(c))].slice(0, limit);
  }

  find(id: number): Promise<CustomerRecord | null> {
    return this.repo.findOneBy({ id, deletedAt: IsNull() });
  }

  async findByEmail(email: string, excludeId?: number): Promise<CustomerRecord | null> {
    const rows = await this.repo.findBy({ email, deletedAt: IsNull() });
    return rows.find((r) => r.id !== excludeId) ?? null;
  }

  async idsMatching(q: string, limit: number): Promise<number[]> {
    const rows = await this.repo
      .createQueryBuilder('c')
      .select('c.id', 'id')
      .where('c.name = :q OR c.email = :qLower OR c.phone = :q', { q, qLower: q.toLowerCase() })
      .orderBy('c.id', 'ASC')
      .limit(limit)
      .getRawMany<{ id: number }>();
    return rows.map((r) => Number(r.id));
  }

  create(c: CustomerWrite, now: Date): Promise<CustomerRecord> {
    return this.repo.save(this.repo.create({ ...c, isWalkIn: false, anonymisedAt: null, version: 1, createdAt: now, updatedAt: now, deletedAt: null }));
  }

  async update(id: number, changes: Partial<CustomerWrite>, now: Date): Promise<void> {
    await this.repo.update({ id }, { ...changes, updatedAt: now, version: NEXT_VERSION });
  }

  async lockVersion(id: number): Promise<number | null> {
    const rows = (await this.em.query(`SELECT version FROM customers WHERE id = ? AND deleted_at IS NULL${this.isSqlite ? '' : ' FOR UPDATE'}`, [id])) as {
      version: number | string;
    }[];
    return rows.length ? Number(rows[0].version) : null;
  }

  async anonymiseAndDelete(id: number, at: Date): Promise<void> {
    await this.repo.update(
      { id },
      {
        name: `Deleted customer #${id}`,
        email: null,
        phone: null,
        address: null,
        notes: null,
        status: 'inactive',
        anonymisedAt: at,
        deletedAt: at,
        updatedAt: at,
        version: NEXT_VERSION,
      },
    );
  }

  syncPage(afterId: number, limit: number, changedSince?: Date): Promise<CustomerRecord[]> {
    const qb = this.repo.createQueryBuilder('c').where('c.id > :afterId', { afterId });
    if (changedSince) qb.andWhere('c.updated_at >= :since', { since: changedSince });
    else qb.andWhere('c.deleted_at IS NULL');
    return qb.orderBy('c.id', 'ASC').limit(limit).getMany();
  }

  groups(ids?: number[]): Promise<CustomerGroupRecord[]> {
    return this.em.getRepository(CustomerGroupEntity).find({ where: ids ? { id: In(ids) } : {}, order: { name: 'ASC' } });
  }

  groupByCode(code: string): Promise<CustomerGroupRecord | null> {
    return this.em.getRepository(CustomerGroupEntity).findOneBy({ code });
  }

  createGroup(name: string, code: string, now: Date): Promise<CustomerGroupRecord> {
    return this.em.getRepository(CustomerGroupEntity).save({ name, code, createdAt: now, updatedAt: now });
  }
}
