import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource } from 'typeorm';

/**
 * SQLite through TypeORM runs every transaction on one shared connection, so two use cases
 * running at once would interleave inside one BEGIN (one's rollback undoing the other's
 * work). On SQLite, top-level transactions therefore take turns. MySQL gets the plain adapter:
 * each transaction has its own pooled connection and row locks do the rest.
 */
export class SerializedTransactionalAdapterTypeOrm extends TransactionalAdapterTypeOrm {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(options: ConstructorParameters<typeof TransactionalAdapterTypeOrm>[0]) {
    super(options);
    const base = this.optionsFactory;
    this.optionsFactory = (dataSource: DataSource) => {
      const options = base(dataSource);
      return {
        ...options,
        wrapWithTransaction: (txOptions, fn, setClient) => this.exclusive(() => options.wrapWithTransaction(txOptions, fn, setClient)),
      };
    };
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
