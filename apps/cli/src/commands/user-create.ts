import { defineCommand } from '../cli/command';
import { CliRefusal, EXIT } from '../cli/errors';
import { ids, str, text } from '../cli/values';

export default defineCommand({
  name: 'user:create',
  summary: 'Create a staff user (role admin, manager or cashier)',
  flags: {
    email: { value: 'EMAIL', required: true, description: 'login email (stored lower-case; must be unused)' },
    name: { value: 'NAME', required: true, description: 'display name, at most 255 characters' },
    password: { value: 'PASSWORD', required: true, description: 'at least 8 characters' },
    role: { value: 'ROLE', required: true, description: 'a role slug: admin, manager or cashier' },
    stores: { value: 'IDS', description: 'comma-separated store ids; the first is the default store' },
  },
  examples: ['user:create --email ann@example.com --name "Ann Lee" --password "long secret" --role cashier --stores 1'],
  async run(flags, ctx) {
    const email = text(flags, 'email', 255);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new CliRefusal(`--email must be an email address (got "${email}")`, EXIT.refused);
    const input = {
      email,
      name: text(flags, 'name', 255),
      password: str(flags, 'password') ?? '',
      role: text(flags, 'role', 50),
      storeIds: ids(flags, 'stores'),
    };
    if (input.password.length < 8) throw new CliRefusal('--password must be at least 8 characters', EXIT.refused);
    const { IDENTITY_FEATURES, UserAdminService } = await import('../runtime/identity');
    const user = await (await ctx.nest(IDENTITY_FEATURES)).get(UserAdminService).createUser(input);
    return { id: user.id, email: user.email, name: user.name };
  },
});
