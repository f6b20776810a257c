/** A unique-index violation from either driver (MySQL ER_DUP_ENTRY, SQLite UNIQUE constraint). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; driverError?: { code?: string; errno?: number } } | null;
  const code = e?.driverError?.code ?? e?.code;
  const errno = e?.driverError?.errno ?? e?.errno;
  return code === 'ER_DUP_ENTRY' || errno === 1062 || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** MySQL gave up waiting for a row lock another transaction holds (innodb_lock_wait_timeout). */
export function isLockWaitTimeout(error: unknown): boolean {
  const e = error as { code?: string; driverError?: { code?: string } } | null;
  return (e?.driverError?.code ?? e?.code) === 'ER_LOCK_WAIT_TIMEOUT';
}

/** A deadlock or lock wait timeout: the transaction can be retried as a whole. */
export function isRetryableTransactionError(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; driverError?: { code?: string; errno?: number } } | null;
  const code = e?.driverError?.code ?? e?.code;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || code === 'SQLITE_BUSY';
}

/** A foreign key naming a row that does not exist (MySQL ER_NO_REFERENCED_ROW(_2), SQLite FOREIGN KEY). */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; driverError?: { code?: string; errno?: number } } | null;
  const code = e?.driverError?.code ?? e?.code;
  const errno = e?.driverError?.errno ?? e?.errno;
  return code === 'ER_NO_REFERENCED_ROW_2' || code === 'ER_NO_REFERENCED_ROW' || errno === 1452 || errno === 1216 || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** A number too large for its column (MySQL strict mode ER_WARN_DATA_OUT_OF_RANGE). */
export function isOutOfRange(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; driverError?: { code?: string; errno?: number } } | null;
  const code = e?.driverError?.code ?? e?.code;
  const errno = e?.driverError?.errno ?? e?.errno;
  return code === 'ER_WARN_DATA_OUT_OF_RANGE' || errno === 1264;
}

/** Driver and socket codes that say "the database cannot be reached or did not answer in time". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_QUERY_TIMEOUT', // MySQL max_execution_time
  'ER_STATEMENT_TIMEOUT', // MariaDB max_statement_time
  'ER_UNKNOWN_COM_ERROR', // Galera: "WSREP has not yet prepared node for application use"
  'DB_ACQUIRE_TIMEOUT', // our pool bound (db-timeouts.ts)
  'DB_STATEMENT_TIMEOUT', // our statement bound (db-timeouts.ts)
]);
/**
 * MySQL/MariaDB errnos: too many connections, server shutdown, query interrupted by a time limit,
 * and 1047, which a Galera node answers to every statement while it is not part of the primary
 * component (partitioned, joining, donor/desynced): the same request succeeds on a ready node, so
 * it is an outage of this node, retried elsewhere or later, never a defect.
 */
const UNAVAILABLE_ERRNOS = new Set([1040, 1047, 1053, 1969, 3024]);

/**
 * The database is down, unreachable or too slow (a bounded wait ran out): the request may well
 * succeed later, so the caller answers 503 with Retry-After, never 401/500. A connection the
 * driver already closed after such a failure ("closed state", fatal) counts too.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as {
    code?: unknown;
    errno?: unknown;
    fatal?: unknown;
    message?: unknown;
    driverError?: { code?: unknown; errno?: unknown; fatal?: unknown };
  } | null;
  if (!e || typeof e !== 'object') return false;
  for (const x of [e.driverError, e]) {
    if (!x) continue;
    if (typeof x.code === 'string' && UNAVAILABLE_CODES.has(x.code)) return true;
    if (typeof x.errno === 'number' && UNAVAILABLE_ERRNOS.has(x.errno)) return true;
  }
  const message = typeof e.message === 'string' ? e.message : '';
  return (
    /^(Pool is closed|Can't add new command when connection is in closed state|Connection lost)/i.test(message) ||
    (e.driverError?.fatal === true && message !== '')
  );
}
