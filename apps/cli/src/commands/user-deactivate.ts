import { defineCommand } from '../cli/command';
import { text } from '../cli/values';

export default defineCommand({
  name: 'user:deactivate',
  summary: 'Deactivate a staff user who leaves: no login, every token revoked',
  description:
    "A deactivated user's tokens answer 401 at once (each API replica drops its cached principal through Redis; without Redis within AUTH_CACHE_TTL_MS); their login answers as a wrong password does. user:activate undoes it (the user logs in again).",
  flags: {
    email: { value: 'EMAIL', required: true, description: "the user's email" },
  },
  examples: ['user:deactivate --email ann@example.com'],
  async run(flags, ctx) {
    const email = text(flags, 'email', 255);
    const { IDENTITY_FEATURES, UserAdminService } = await import('../runtime/identity');
    return (await ctx.nest(IDENTITY_FEATURES)).get(UserAdminService).setActive(email, false);
  },
});
