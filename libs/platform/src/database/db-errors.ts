/** A unique-index violation from either driver (MySQL ER_DUP_ENTRY, SQLite UNIQUE constraint). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; driverError?: { code?: string; errno?: number } } | null;
  const code = e?.driverError?.code ?? e?.code;
  const errno = e?.driverError?.errno ?? e?.errno;
  return code === 'ER_DUP_ENTRY' || errno === 1062 || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
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
