import { defineCommand } from '../cli/command';

export default defineCommand({
  name: 'migrate',
  summary: 'Run the pending database migrations',
  description: 'Opens only a database connection (no Nest context); prints the names of the migrations it ran.',
  flags: {},
  examples: ['migrate', 'migrate   # with DB_TYPE=mysql DB_HOST=... in the environment or .env'],
  async run(_flags, ctx) {
    const { createDataSource } = await import('../runtime/database');
    const ds = createDataSource(ctx.config().db);
    await ds.initialize();
    try {
      const ran = await ds.runMigrations({ transaction: 'each' });
      return { migrated: ran.map((m) => m.name) };
    } finally {
      await ds.destroy();
    }
  },
});
