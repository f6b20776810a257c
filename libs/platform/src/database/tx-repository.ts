import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { EntityManager } from 'typeorm';

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
