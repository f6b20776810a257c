import { defineCommand } from '../cli/command';
import { text } from '../cli/values';

export default defineCommand({
  name: 'user:reset-2fa',
  summary: "Turn a staff user's two-factor off (a lost phone): they log in with the password and enrol again",
  description: 'Refused (exit 65) when the user has no two-factor. Their tokens stay valid.',
  flags: {
    email: { value: 'EMAIL', required: true, description: "the user's email" },
  },
  examples: ['user:reset-2fa --email ann@example.com'],
  async run(flags, ctx) {
    const email = text(flags, 'email', 255);
    const { IDENTITY_FEATURES, UserAdminService } = await import('../runtime/identity');
    return (await ctx.nest(IDENTITY_FEATURES)).get(UserAdminService).resetTwoFactor(email);
  },
});
