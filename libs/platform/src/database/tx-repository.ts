import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { insertRows } from './insert-rows';
import { runStatement } from './raw-statement';
import { hydratedValue, RawPart, RawPartRows, rawUnion } from './raw-union';

/**
 * Base of every TypeORM repository: reads and writes go through the ambient transaction of the
 * use case (CLS) when there is one, else the plain connection.
 */
@Injectable()
export abstract class TxRepository {
  constructor(protected readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  protected get em(): EntityManager {
    return this.txHost.tx;
  }

  /**
   * Entities by id, for long id lists (a report's thousands of sessions): plain `?` placeholders
   * in chunks of 1,000, without the query builder's parameter expansion and alias mapping, whose
   * cost grows with the list. Rows come back in id order.
   */
  protected findByIdsRaw<E extends ObjectLiteral>(entity: EntityTarget<E>, ids: readonly number[]): Promise<E[]> {
    return this.findInRaw(entity, 'id', ids);
  }

  /**
   * Entities whose `column` (its database name) holds one of `values` (a page's items' barcodes or
   * units by item_id), as findByIdsRaw reads them: what `find({ where: { [column]: In(values) },
   * order: { id: 'ASC' } })` returns, in id order.
   */
  protected async findInRaw<E extends ObjectLiteral>(entity: EntityTarget<E>, column: string, values: readonly number[]): Promise<E[]> {
    const unique = [...new Set(values)].sort((a, b) => a - b);
    const out: E[] = [];
    const col = this.em.connection.driver.escape(column);
    for (let i = 0; i < unique.length; i += 1000) {
      const part = unique.slice(i, i + 1000);
      out.push(...(await this.selectRaw(entity, `${col} IN (${part.map(() => '?').join(', ')}) ORDER BY id`, part)));
    }
    // One chunk is in id order already (and chunks of ids follow one another); rows of several chunks of another column are sorted together.
    if (unique.length > 1000 && column !== 'id') out.sort((a, b) => Number(a.id) - Number(b.id));
    return out;
  }

  /**
   * Several findInRaw reads in one statement (rawUnion): a page's barcodes, units and categories
   * in one round trip instead of three. Long lists (over 1,000 values in a part) are read part by
   * part instead.
   */
  protected async findInRawTogether<T extends readonly RawPart[]>(parts: T): Promise<RawPartRows<T>> {
    if (parts.some((p) => p.values.length > 1000)) {
      return (await Promise.all(parts.map((p) => this.findInRaw(p.entity, p.column, p.values)))) as RawPartRows<T>;
    }
    if (parts.every((p) => !p.values.length)) return parts.map(() => []) as RawPartRows<T>;
    const u = rawUnion(
      this.em,
      parts.map((p) => ({ ...p, values: [...new Set(p.values)] })),
    );
    return u.hydrate(await this.statement<Record<string, unknown>[]>(u.sql, u.params)) as RawPartRows<T>;
  }

  /**
   * Entities matching a plain SQL condition (`where`, with `?` placeholders; it may end with an
   * ORDER BY or LIMIT), each column through the driver's own conversion (types, transformers):
   * what a `findBy` returns, without building a select query builder on every call (a hot path's
   * one-row reads: the checkout's session).
   */
  protected async selectRaw<E extends ObjectLiteral>(entity: EntityTarget<E>, where: string, params: unknown[]): Promise<E[]> {
    const meta = this.em.connection.getMetadata(entity);
    const driver = this.em.connection.driver;
    const rows = await this.statement<Record<string, unknown>[]>(`SELECT * FROM ${driver.escape(meta.tableName)} WHERE ${where}`, params);
    return rows.map((row) => {
      const e: Record<string, unknown> = {};
      for (const c of meta.columns) e[c.propertyName] = hydratedValue(driver, row[c.databaseName], c);
      return e as E;
    });
  }

  /** One statement in the ambient transaction, as `em.query` answers it (runStatement: without TypeORM's wrapping on MySQL). */
  protected statement<T = unknown>(sql: string, params: unknown[]): Promise<T> {
    return runStatement<T>(this.em, sql, params);
  }

  /** Rows written as plain multi-row INSERTs (see insertRows); their generated ids in row order. */
  protected insertRows<E extends ObjectLiteral>(entity: EntityTarget<E>, rows: readonly Partial<E>[]): Promise<number[]> {
    return insertRows(this.em, entity, rows);
  }

  /** LIKE pattern with the user's %, _ and \ taken literally. */
  protected like(value: string, mode: 'prefix' | 'contains'): string {
    const escaped = value.replace(/[\\%_]/g, (c) => '\\' + c);
    return mode === 'prefix' ? `${escaped}%` : `%${escaped}%`;
  }

  protected get isSqlite(): boolean {
    return this.em.connection.options.type === 'better-sqlite3';
  }

  /** ESCAPE clause for LIKE (SQLite has no default escape character). */
  protected get esc(): string {
    return this.isSqlite ? " ESCAPE '\\'" : '';
  }
}
