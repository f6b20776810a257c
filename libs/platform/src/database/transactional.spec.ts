import type { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { isWriteDeadlineExceeded } from './write-deadline';
import { limitTransactionAge, TransactionTooOldError, withTransactionRetry } from './transactional';

/** A transaction host that records whether the work's transaction committed or rolled back. */
function fakeHost() {
  const outcomes: string[] = [];
  const host = {
    isTransactionActive: () => false,
    withTransaction: async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        const result = await work();
        outcomes.push('commit');
        return result;
      } catch (error) {
        outcomes.push('rollback');
        throw error;
      }
    },
  };
  return { host: host as unknown as TransactionHost<TransactionalAdapterTypeOrm>, outcomes };
}

describe('the transaction age bound (the change horizon proviso)', () => {
  let now = 0;
  beforeEach(() => {
    now = 1_000;
    jest.spyOn(performance, 'now').mockImplementation(() => now);
  });
  afterEach(() => {
    limitTransactionAge(0);
    jest.restoreAllMocks();
  });

  it('rolls back an attempt older than the limit when it is about to commit, with the deadline code (503)', async () => {
    limitTransactionAge(5_000);
    const { host, outcomes } = fakeHost();
    const slow = withTransactionRetry(host, async () => {
      now += 5_001;
      return 'written';
    });
    const error = await slow.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionTooOldError);
    expect(isWriteDeadlineExceeded(error)).toBe(true);
    expect(outcomes).toEqual(['rollback']); // not retried: the caller decides
  });

  it('commits an attempt within the limit, and any attempt when there is no limit', async () => {
    const { host, outcomes } = fakeHost();
    limitTransactionAge(5_000);
    await expect(
      withTransactionRetry(host, async () => {
        now += 4_999;
        return 'ok';
      }),
    ).resolves.toBe('ok');
    limitTransactionAge(0);
    await expect(
      withTransactionRetry(host, async () => {
        now += 3_600_000;
        return 'ok';
      }),
    ).resolves.toBe('ok');
    expect(outcomes).toEqual(['commit', 'commit']);
  });
});
