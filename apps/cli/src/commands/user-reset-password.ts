import { defineCommand } from '../cli/command';
import { CliRefusal, EXIT } from '../cli/errors';
import { str, text } from '../cli/values';

export default defineCommand({
  name: 'user:reset-password',
  summary: "Set a staff user's password (and sign them out everywhere)",
  description: 'Every token of the user is revoked: their tills and sessions log in again with the new password.',
  flags: {
    email: { value: 'EMAIL', required: true, description: "the user's email" },
    password: { value: 'PASSWORD', required: true, description: 'the new password, at least 8 characters' },
  },
  examples: ['user:reset-password --email ann@example.com --password "new long secret"'],
  async run(flags, ctx) {
    const email = text(flags, 'email', 255);
    const password = str(flags, 'password') ?? '';
    if (password.length < 8) throw new CliRefusal('--password must be at least 8 characters', EXIT.refused);
    const { IDENTITY_FEATURES, UserAdminService } = await import('../runtime/identity');
    const { tokens_revoked } = await (await ctx.nest(IDENTITY_FEATURES)).get(UserAdminService).resetPassword(email, password);
    return { reset: true, tokens_revoked };
  },
});
