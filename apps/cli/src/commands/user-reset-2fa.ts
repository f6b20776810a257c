import { userByEmailCommand } from './user-by-email';

export default userByEmailCommand({
  name: 'user:reset-2fa',
  summary: "Turn a staff user's two-factor off (a lost phone): they log in with the password and enrol again",
  description: 'Refused (exit 65) when the user has no two-factor. Their tokens stay valid.',
  act: (users, email) => users.resetTwoFactor(email),
});
