import { defineCommand } from '../cli/command';
import { text } from '../cli/values';

export default defineCommand({
  name: 'user:revoke-tokens',
  summary: 'Sign a staff user out everywhere (a lost till): revoke every token',
  description: 'The user logs in again with their password; API application tokens are revoked with token:revoke.',
  flags: {
    email: { value: 'EMAIL', required: true, description: "the user's email" },
  },
  examples: ['user:revoke-tokens --email ann@example.com'],
  async run(flags, ctx) {
    const email = text(flags, 'email', 255);
    const { IDENTITY_FEATURES, UserAdminService } = await import('../runtime/identity');
    return (await ctx.nest(IDENTITY_FEATURES)).get(UserAdminService).revokeTokens(email);
  },
});
