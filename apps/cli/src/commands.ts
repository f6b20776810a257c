import { INestApplicationContext } from '@nestjs/common';
import { DemoDataService } from '@pos/demo';
import { ApiApplicationService, OPERATOR, UserAdminService } from '@pos/identity';
import { RollupRebuildService } from '@pos/integration';
import { ItemService } from '@pos/catalog';
import { SaleFactsReader } from '@pos/sales';
import { DataSource } from 'typeorm';
import { VolumeSeeder } from './volume-seed/volume-seeder';

export const USAGE = `usage: npm run cli -- <migrate|seed:demo|seed:volume|reports:rebuild|catalog:reindex-names|user:create|user:reset-password|user:discount-limits|app:create|token:issue|token:revoke> [--flags]`;

/** Runs one operator command in a Nest application context; returns what to print. */
export async function runCommand(app: INestApplicationContext, command: string | undefined, f: Record<string, string | undefined>): Promise<unknown> {
  const need = (name: string): string => {
    const v = f[name];
    if (!v) throw new UsageError(`--${name} is required for ${command}`);
    return v;
  };
  const ids = (v?: string) => (v ? v.split(',').map((s) => int(s.trim(), 'stores')) : []);
  switch (command) {
    case 'seed:demo':
      return app.get(DemoDataService).seed();
    case 'reports:rebuild':
      // [--chunk-rows 5000]: rows per transaction (REPORTS_REBUILD_CHUNK_ROWS by default)
      return app
        .get(RollupRebuildService)
        .rebuild((m) => process.stderr.write(`${m}\n`), { chunkRows: f['chunk-rows'] ? int(f['chunk-rows'], 'chunk-rows') : undefined });
    case 'catalog:reindex-names':
      return { item_name_words: await app.get(ItemService).rebuildNameIndex() };
    case 'seed:volume': {
      // --sales 1000000 [--items 500] [--customers 2000] [--days 365] [--seed 1]
      const log = (m: string) => process.stderr.write(`${new Date().toISOString()} ${m}\n`);
      const demo = app.get(DemoDataService);
      if (await demo.isEmpty()) await demo.seed();
      const started = Date.now();
      const counts = await new VolumeSeeder(app.get(DataSource)).run({
        sales: int(need('sales'), 'sales'),
        items: f.items ? int(f.items, 'items') : 500,
        customers: f.customers ? int(f.customers, 'customers') : 2000,
        days: f.days ? int(f.days, 'days') : 365,
        seed: f.seed ? int(f.seed, 'seed') : 1,
        log,
      });
      log(
        `seeded in ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(counts)}; recounting the feeds' sale counts, rebuilding the report rollups`,
      );
      await app.get(SaleFactsReader).rebuildFeedCounts();
      await app.get(ItemService).rebuildNameIndex();
      const rollups = await app.get(RollupRebuildService).rebuild(log);
      return { seeded: counts, rollups };
    }
    case 'user:create': {
      const user = await app
        .get(UserAdminService)
        .createUser({ email: need('email'), name: need('name'), password: need('password'), role: need('role'), storeIds: ids(f.stores) });
      return { id: user.id, email: user.email, name: user.name };
    }
    case 'user:discount-limits': {
      // --max-percent 15 --max-amount 50.00 (or "role" to fall back to the role's) [--pin 4321]
      const pct = f['max-percent'];
      const amt = f['max-amount'];
      const parse = (v: string | undefined, flag: string, scale: number) => {
        if (v === undefined) return undefined;
        if (v === 'role') return null;
        if (!/^\d+(\.\d{1,2})?$/.test(v)) throw new UsageError(`--${flag} must be a number with at most 2 decimals, or "role"`);
        return Math.round(Number(v) * scale);
      };
      return app
        .get(UserAdminService)
        .setDiscountLimits(need('email'), { maxPercentBp: parse(pct, 'max-percent', 100), maxAmount: parse(amt, 'max-amount', 100), pin: f.pin });
    }
    case 'user:reset-password':
      await app.get(UserAdminService).resetPassword(need('email'), need('password'));
      return { reset: true };
    case 'app:create':
      return app.get(ApiApplicationService).create(OPERATOR, {
        name: need('name'),
        permissions: need('permissions')
          .split(',')
          .map((s) => s.trim()),
        storeIds: ids(f.stores),
      });
    case 'token:issue':
      return app.get(ApiApplicationService).issueToken(OPERATOR, int(need('app'), 'app'), {
        name: need('name'),
        abilities: need('abilities')
          .split(',')
          .map((s) => s.trim()),
        expiresInMinutes: f['expires-in'] ? int(f['expires-in'], 'expires-in') : undefined,
      });
    case 'token:revoke':
      await app.get(ApiApplicationService).revokeToken(OPERATOR, int(need('app'), 'app'), int(need('token'), 'token'));
      return { revoked: true };
    default:
      throw new UsageError(USAGE);
  }
}

export class UsageError extends Error {}

function int(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} must be a positive integer`);
  return Number(value);
}
