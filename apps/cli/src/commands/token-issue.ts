import { defineCommand } from '../cli/command';
import { int, oneOfList, text } from '../cli/values';

export default defineCommand({
  name: 'token:issue',
  summary: 'Issue a token for an API application (shown once: store it)',
  description:
    'Validated like POST /api/v1/api-applications/{id}/tokens: abilities from the list the API accepts (at most 10), a lifetime of 1 to 5,256,000 minutes (default APP_TOKEN_TTL_MINUTES).',
  flags: {
    app: { value: 'ID', required: true, description: 'the API application (user) id app:create printed' },
    name: { value: 'NAME', required: true, description: 'token name, at most 255 characters' },
    abilities: { value: 'LIST', required: true, description: 'comma-separated abilities, e.g. integration:read' },
    'expires-in': { value: 'MINUTES', description: 'lifetime in minutes (default APP_TOKEN_TTL_MINUTES)' },
  },
  examples: [
    'token:issue --app 7 --name reporting-server --abilities integration:read',
    'token:issue --app 7 --name nightly --abilities integration:read --expires-in 1440',
  ],
  async run(flags, ctx) {
    const { ABILITIES, ApiApplicationService, IDENTITY_FEATURES, OPERATOR } = await import('../runtime/identity');
    const appId = int(flags, 'app', { min: 1 })!;
    const input = {
      name: text(flags, 'name', 255),
      abilities: oneOfList(flags, 'abilities', ABILITIES, 'ability', 10),
      expiresInMinutes: int(flags, 'expires-in', { min: 1, max: 5_256_000 }),
    };
    return (await ctx.nest(IDENTITY_FEATURES)).get(ApiApplicationService).issueToken(OPERATOR, appId, input);
  },
});
