import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { NameDirectory } from '../application/name.directory';

/**
 * Reads ids and names straight from the users and customers tables (identity's and customers'),
 * read only, like catalog's SqlTaxClassDirectory: reports need only these two facts for labels.
 */
@Injectable()
export class SqlNameDirectory extends TxRepository implements NameDirectory {
  users(ids: number[]): Promise<Map<number, string>> {
    return this.names('users', ids);
  }

  async staffName(id: number, stores: readonly number[] | 'all'): Promise<string | undefined> {
    const inStores =
      stores === 'all'
        ? ''
        : ` AND (r.is_super_admin = 1 OR EXISTS (SELECT 1 FROM user_stores us WHERE us.user_id = u.id AND us.store_id IN (${stores.map(() => '?').join(', ') || 'NULL'})))`;
    const rows = (await this.em.query(
      `SELECT u.name AS name FROM users u LEFT JOIN roles r ON r.id = u.role_id WHERE u.id = ? AND u.is_api_application = 0${inStores}`,
      [id, ...(stores === 'all' ? [] : stores)],
    )) as { name: string }[];
    return rows.length ? String(rows[0].name) : undefined;
  }

  customers(ids: number[]): Promise<Map<number, string>> {
    return this.names('customers', ids);
  }

  private async names(table: 'users' | 'customers', ids: number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 1000) {
      const part = unique.slice(i, i + 1000);
      const rows = (await this.em.query(`SELECT id, name FROM ${table} WHERE id IN (${part.map(() => '?').join(', ')})`, part)) as {
        id: number;
        name: string;
      }[];
      for (const r of rows) out.set(Number(r.id), String(r.name));
    }
    return out;
  }
}
