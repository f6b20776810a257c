import { TableColumnOptions, TableForeignKeyOptions } from 'typeorm';
import { ValueTransformer } from 'typeorm';

/**
 * Column builders for migrations written with the QueryRunner/Table API, so one migration
 * history runs unchanged on MySQL/MariaDB and on SQLite.
 */
export const col = {
  id(name = 'id'): TableColumnOptions {
    return { name, type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
  },
  int(name: string, opts: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return { name, type: 'integer', isNullable: false, ...opts };
  },
  ref(name: string, nullable = false): TableColumnOptions {
    return { name, type: 'integer', isNullable: nullable };
  },
  /** Integer minor units (cents). bigint on MySQL, INTEGER (64-bit) on SQLite. */
  money(name: string, opts: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return { name, type: 'bigint', isNullable: false, default: 0, ...opts };
  },
  string(name: string, length = 255, opts: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return { name, type: 'varchar', length: String(length), isNullable: false, ...opts };
  },
  text(name: string, nullable = true): TableColumnOptions {
    return { name, type: 'text', isNullable: nullable };
  },
  bool(name: string, value = false): TableColumnOptions {
    return { name, type: 'boolean', isNullable: false, default: value };
  },
  datetime(name: string, nullable = true): TableColumnOptions {
    return { name, type: 'datetime', isNullable: nullable };
  },
  timestamps(): TableColumnOptions[] {
    return [col.datetime('created_at', false), col.datetime('updated_at', false)];
  },
  softDelete(): TableColumnOptions {
    return col.datetime('deleted_at', true);
  },
};

export function fk(column: string, table: string, onDelete: TableForeignKeyOptions['onDelete'] = 'RESTRICT'): TableForeignKeyOptions {
  return { columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete };
}

/** bigint columns come back from mysql2 as strings; money stays a safe integer in the domain. */
export const bigintToNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? value : Number(value)),
};

/** Timestamps are stored as UTC and read back as Date on both drivers. */
export const utcDate: ValueTransformer = {
  to: (value: Date | null | undefined) => value,
  from: (value: string | Date | null) => {
    if (value === null || value === undefined) return value;
    if (value instanceof Date) return value;
    return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : value.replace(' ', 'T') + 'Z');
  },
};
