import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { DomainError, ValidationFailedError } from '@pos/kernel';
import { ConfigError, createDataSource, loadConfig } from '@pos/platform';
import { CliModule } from './cli.module';
import { runCommand, UsageError } from './commands';

/**
 * Operator commands:  npm run cli -- <command> [--flags]
 *   migrate                                    run pending migrations
 *   seed:demo                                  load the demo data (idempotent)
 *   user:create --email --name --password --role admin|manager|cashier [--stores 1,2]
 *   user:reset-password --email --password
 *   app:create --name --permissions sales.view,items.view [--stores 1,2]
 *   token:issue --app ID --name NAME --abilities integration:read [--expires-in MINUTES]
 *   token:revoke --app ID --token TOKEN_ID
 *   user:discount-limits --email --max-percent 15|role --max-amount 50.00|role [--pin 4321]
 *   seed:volume --sales 1000000 [--items 500 --customers 2000 --days 365 --seed 1]   benchmark data (then reports:rebuild)
 *   reports:rebuild [--chunk-rows 5000]        rebuild the report rollups from the raw sales, returns and stock ledger
 *                                              (rows per transaction: REPORTS_REBUILD_CHUNK_ROWS by default)
 *   catalog:reindex-names                      rebuild the item name search index (after items were imported around the API)
 * Prints JSON on stdout; exits non-zero with a message on failure.
 */
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values: f } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      stores: { type: 'string' },
      permissions: { type: 'string' },
      app: { type: 'string' },
      abilities: { type: 'string' },
      'expires-in': { type: 'string' },
      token: { type: 'string' },
      'max-percent': { type: 'string' },
      'max-amount': { type: 'string' },
      pin: { type: 'string' },
      sales: { type: 'string' },
      items: { type: 'string' },
      customers: { type: 'string' },
      days: { type: 'string' },
      'chunk-rows': { type: 'string' },
      seed: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig();
  if (command === 'migrate') {
    const ds = createDataSource(config.db);
    await ds.initialize();
    const ran = await ds.runMigrations({ transaction: 'each' });
    await ds.destroy();
    print({ migrated: ran.map((m) => m.name) });
    return;
  }
  const app = await NestFactory.createApplicationContext(CliModule.register(config), { logger: ['error', 'warn'] });
  try {
    print(await runCommand(app, command, f));
  } finally {
    await app.close();
  }
}

function print(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof ValidationFailedError)
      process.stderr.write(
        `${Object.entries(error.fields)
          .map(([k, v]) => `${k}: ${v.join(' ')}`)
          .join('\n')}\n`,
      );
    else if (error instanceof DomainError || error instanceof UsageError || error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
