import { userByEmailCommand } from './user-by-email';

export default userByEmailCommand({
  name: 'user:activate',
  summary: 'Activate a deactivated staff user again (they log in anew)',
  act: (users, email) => users.setActive(email, true),
});
