import { userByEmailCommand } from './user-by-email';

export default userByEmailCommand({
  name: 'user:deactivate',
  summary: 'Deactivate a staff user who leaves: no login, every token revoked',
  description:
    "A deactivated user's tokens answer 401 at once (each API replica drops its cached principal through Redis; without Redis within AUTH_CACHE_TTL_MS); their login answers as a wrong password does. user:activate undoes it (the user logs in again).",
  act: (users, email) => users.setActive(email, false),
});
