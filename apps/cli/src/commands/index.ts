import type { Command } from '../cli/command';
import appCreate from './app-create';
import catalogReindexNames from './catalog-reindex-names';
import migrate from './migrate';
import reportsRebuild from './reports-rebuild';
import seedDemo from './seed-demo';
import seedVolume from './seed-volume';
import tokenIssue from './token-issue';
import tokenRevoke from './token-revoke';
import userActivate from './user-activate';
import userCreate from './user-create';
import userDeactivate from './user-deactivate';
import userDiscountLimits from './user-discount-limits';
import userReset2fa from './user-reset-2fa';
import userResetPassword from './user-reset-password';
import userRevokeTokens from './user-revoke-tokens';

/** Every operator command, in the order `--help` lists them. Each file is light: what it runs loads on demand. */
export const COMMANDS: readonly Command[] = [
  migrate,
  seedDemo,
  seedVolume,
  reportsRebuild,
  catalogReindexNames,
  userCreate,
  userResetPassword,
  userDiscountLimits,
  userDeactivate,
  userActivate,
  userRevokeTokens,
  userReset2fa,
  appCreate,
  tokenIssue,
  tokenRevoke,
];
