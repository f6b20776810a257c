import { defineCommand } from '../cli/command';
import { text } from '../cli/values';

export default defineCommand({
  name: 'user:activate',
  summary: 'Activate a deactivated staff user again (they log in anew)',
  flags: {
    email: { value: 'EMAIL', required: true, description: "the user's email" },
  },
  examples: ['user:activate --email ann@example.com'],
  async run(flags, ctx) {
    const email = text(flags, 'email', 255);
    const { IDENTITY_FEATURES, UserAdminService } = await import('../runtime/identity');
    return (await ctx.nest(IDENTITY_FEATURES)).get(UserAdminService).setActive(email, true);
  },
});
