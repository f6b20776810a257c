import { userByEmailCommand } from './user-by-email';

export default userByEmailCommand({
  name: 'user:revoke-tokens',
  summary: 'Sign a staff user out everywhere (a lost till): revoke every token',
  description: 'The user logs in again with their password; API application tokens are revoked with token:revoke.',
  act: (users, email) => users.revokeTokens(email),
});
