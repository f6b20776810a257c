import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, isRetryableTransactionError } from './db-errors';

/** A driver error as mysql2 builds it, wrapped by TypeORM as a failed query. */
function mysqlError(errno: number, code: string, message: string): QueryFailedError {
  const driverError = Object.assign(new Error(message), { errno, code, sqlState: '08S01', sqlMessage: message, fatal: false });
  return new QueryFailedError('SELECT 1', [], driverError);
}

describe('isDatabaseUnavailable', () => {
  it('counts a Galera node that is not ready (1047 ER_UNKNOWN_COM_ERROR) as an outage, not a defect', () => {
    const notReady = mysqlError(1047, 'ER_UNKNOWN_COM_ERROR', 'WSREP has not yet prepared node for application use');
    expect(isDatabaseUnavailable(notReady)).toBe(true);
    // the raw driver error too (a pool checkout or a health probe sees it unwrapped)
    expect(isDatabaseUnavailable(notReady.driverError)).toBe(true);
    // whole-transaction retry on the same node would meet the same node: answered 503, not retried here
    expect(isRetryableTransactionError(notReady)).toBe(false);
  });

  it('by errno alone or by code alone', () => {
    expect(isDatabaseUnavailable({ errno: 1047 })).toBe(true);
    expect(isDatabaseUnavailable({ driverError: { code: 'ER_UNKNOWN_COM_ERROR' } })).toBe(true);
  });

  it('keeps the other outages and leaves ordinary query errors alone', () => {
    expect(isDatabaseUnavailable(mysqlError(1053, 'ER_SERVER_SHUTDOWN', 'Server shutdown in progress'))).toBe(true);
    expect(isDatabaseUnavailable(mysqlError(1064, 'ER_PARSE_ERROR', 'You have an error in your SQL syntax'))).toBe(false);
    expect(isDatabaseUnavailable(mysqlError(1062, 'ER_DUP_ENTRY', "Duplicate entry 'x' for key 'y'"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
