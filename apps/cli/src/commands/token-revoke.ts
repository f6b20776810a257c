import { defineCommand } from '../cli/command';
import { int } from '../cli/values';

export default defineCommand({
  name: 'token:revoke',
  summary: "Revoke one of an API application's tokens",
  flags: {
    app: { value: 'ID', required: true, description: 'the API application (user) id' },
    token: { value: 'ID', required: true, description: 'the token id token:issue printed' },
  },
  examples: ['token:revoke --app 7 --token 42'],
  async run(flags, ctx) {
    const appId = int(flags, 'app', { min: 1 })!;
    const tokenId = int(flags, 'token', { min: 1 })!;
    const { ApiApplicationService, IDENTITY_FEATURES, OPERATOR } = await import('../runtime/identity');
    await (await ctx.nest(IDENTITY_FEATURES)).get(ApiApplicationService).revokeToken(OPERATOR, appId, tokenId);
    return { revoked: true };
  },
});
