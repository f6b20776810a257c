import { TwoFactorProvider, UserRecord, UserRepository } from './ports';

/**
 * A TOTP code of the user's confirmed or pending secret, accepted once wherever it is presented
 * (login, 2FA confirm and disable, a discount approval at a till): its time step must be later
 * than the last one accepted for the user (recorded atomically), so a code seen over a shoulder or
 * in a log cannot be replayed within its 30 s (plus drift) window, here or on another path.
 */
export async function consumeTwoFactorCode(users: UserRepository, twoFactor: TwoFactorProvider, user: UserRecord, code: string): Promise<boolean> {
  if (!user.twoFactorSecret) return false;
  const step = twoFactor.verifyStep(twoFactor.unseal(user.twoFactorSecret), code);
  return step !== null && (await users.claimTwoFactorStep(user.id, step));
}
