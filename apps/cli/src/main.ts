import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { INestApplicationContext } from '@nestjs/common';
import { DemoDataService } from '@pos/demo';
import { ApiApplicationService, UserAdminService } from '@pos/identity';
import { DomainError, ValidationFailedError } from '@pos/kernel';
import { ConfigError, createDataSource, loadConfig } from '@pos/platform';
import { CliModule } from './cli.module';

/**
 * Operator commands:  npm run cli -- <command> [--flags]
 *   migrate                                    run pending migrations
 *   seed:demo                                  load the demo data (idempotent)
 *   user:create --email --name --password --role admin|manager|cashier [--stores 1,2]
 *   user:reset-password --email --password
 *   app:create --name --permissions sales.view,items.view [--stores 1,2]
 *   token:issue --app ID --name NAME --abilities integration:read [--expires-in MINUTES]
 *   token:revoke --app ID --token TOKEN_ID
 * Prints JSON on stdout; exits non-zero with a message on failure.
 */
const USAGE = `usage: npm run cli -- <migrate|seed:demo|user:create|user:reset-password|app:create|token:issue|token:revoke> [--flags]`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values: f } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' },
      stores: { type: 'string' }, permissions: { type: 'string' }, app: { type: 'string' }, abilities: { type: 'string' },
      'expires-in': { type: 'string' }, token: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig();
  if (command === 'migrate') {
    const ds = createDataSource(config.db);
    await ds.initialize();
    const ran = await ds.runMigrations({ transaction: 'each' });
    await ds.destroy();
    return print({ migrated: ran.map((m) => m.name) });
  }
  const app = await NestFactory.createApplicationContext(CliModule.register(config), { logger: ['error', 'warn'] });
  try {
    await run(app, command, f);
  } finally {
    await app.close();
  }
}

async function run(app: INestApplicationContext, command: string | undefined, f: Record<string, string | undefined>): Promise<void> {
  const need = (name: string): string => {
    const v = f[name];
    if (!v) throw new UsageError(`--${name} is required for ${command}`);
    return v;
  };
  const ids = (v?: string) => (v ? v.split(',').map((s) => int(s.trim(), 'stores')) : []);
  switch (command) {
    case 'seed:demo':
      return print(await app.get(DemoDataService).seed());
    case 'user:create': {
      const user = await app.get(UserAdminService).createUser({ email: need('email'), name: need('name'), password: need('password'), role: need('role'), storeIds: ids(f.stores) });
      return print({ id: user.id, email: user.email, name: user.name });
    }
    case 'user:reset-password':
      await app.get(UserAdminService).resetPassword(need('email'), need('password'));
      return print({ reset: true });
    case 'app:create':
      return print(await app.get(ApiApplicationService).create({ name: need('name'), permissions: need('permissions').split(',').map((s) => s.trim()), storeIds: ids(f.stores) }));
    case 'token:issue':
      return print(
        await app.get(ApiApplicationService).issueToken(int(need('app'), 'app'), {
          name: need('name'),
          abilities: need('abilities').split(',').map((s) => s.trim()),
          expiresInMinutes: f['expires-in'] ? int(f['expires-in'], 'expires-in') : undefined,
        }),
      );
    case 'token:revoke':
      await app.get(ApiApplicationService).revokeToken(int(need('app'), 'app'), int(need('token'), 'token'));
      return print({ revoked: true });
    default:
      throw new UsageError(USAGE);
  }
}

class UsageError extends Error {}

function int(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} must be a positive integer`);
  return Number(value);
}

function print(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof ValidationFailedError) process.stderr.write(`${Object.entries(error.fields).map(([k, v]) => `${k}: ${v.join(' ')}`).join('\n')}\n`);
    else if (error instanceof DomainError || error instanceof UsageError || error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
