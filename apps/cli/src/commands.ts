import { INestApplicationContext } from '@nestjs/common';
import { DemoDataService } from '@pos/demo';
import { ApiApplicationService, UserAdminService } from '@pos/identity';

export const USAGE = `usage: npm run cli -- <migrate|seed:demo|user:create|user:reset-password|app:create|token:issue|token:revoke> [--flags]`;

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
    case 'user:create': {
      const user = await app.get(UserAdminService).createUser({ email: need('email'), name: need('name'), password: need('password'), role: need('role'), storeIds: ids(f.stores) });
      return { id: user.id, email: user.email, name: user.name };
    }
    case 'user:reset-password':
      await app.get(UserAdminService).resetPassword(need('email'), need('password'));
      return { reset: true };
    case 'app:create':
      return app.get(ApiApplicationService).create({ name: need('name'), permissions: need('permissions').split(',').map((s) => s.trim()), storeIds: ids(f.stores) });
    case 'token:issue':
      return app.get(ApiApplicationService).issueToken(int(need('app'), 'app'), {
        name: need('name'),
        abilities: need('abilities').split(',').map((s) => s.trim()),
        expiresInMinutes: f['expires-in'] ? int(f['expires-in'], 'expires-in') : undefined,
      });
    case 'token:revoke':
      await app.get(ApiApplicationService).revokeToken(int(need('app'), 'app'), int(need('token'), 'token'));
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

