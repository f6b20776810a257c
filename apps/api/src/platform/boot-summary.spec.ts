import { loadConfig } from '@pos/platform';
import { bootSummary } from './boot-summary';

describe('bootSummary', () => {
  it('says in three lines where the API listens, its database, migrations, queue and links', () => {
    const config = loadConfig({ PORT: '3000', DB_SQLITE_PATH: 'data/pos.sqlite' });
    const lines = bootSummary(config, { migrations: { applied: 71, known: 71 }, routes: 260 });
    expect(lines).toEqual([
      'POS API (development) listening: http://localhost:3000/api/v1 · docs http://localhost:3000/api/docs · dashboard http://localhost:3000/dashboard',
      'Database: SQLite data/pos.sqlite, 71 migrations applied; in-process queue (jobs run in this process)',
      '260 routes; metrics http://localhost:3000/metrics; log level info (LOG_LEVEL=debug lists every route)',
    ]);
  });

  it('names pending migrations and the Redis queue', () => {
    const config = loadConfig({ DB_TYPE: 'mysql', DB_HOST: 'db', DB_DATABASE: 'pos', REDIS_URL: 'redis://r:6379' });
    const [, database] = bootSummary(config, { migrations: { applied: 70, known: 71 }, routes: 1 });
    expect(database).toBe(
      'Database: MySQL db:3306/pos, 1 of 71 migrations pending (npm run migrate); BullMQ on Redis (jobs run in workers: npm run start:worker)',
    );
  });
});
