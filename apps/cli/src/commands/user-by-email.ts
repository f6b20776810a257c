import type { UserAdminService } from '@pos/identity';
import { Command, defineCommand } from '../cli/command';
import { text } from '../cli/values';

/**
 * A command that acts on one staff user named by --email through UserAdminService (deactivate,
 * activate, revoke tokens, reset two-factor): the flag, its check and the service in one place.
 */
export function userByEmailCommand(o: {
  name: string;
  summary: string;
  description?: string;
  act: (users: UserAdminService, email: string) => Promise<unknown>;
}): Command {
  return defineCommand({
    name: o.name,
    summary: o.summary,
    description: o.description,
    flags: { email: { value: 'EMAIL', required: true, description: "the user's email" } },
    examples: [`${o.name} --email ann@example.com`],
    async run(flags, ctx) {
      const email = text(flags, 'email', 255);
      const { IDENTITY_FEATURES, UserAdminService } = await import('../runtime/identity');
      return o.act((await ctx.nest(IDENTITY_FEATURES)).get(UserAdminService), email);
    },
  });
}
