import type { Command } from '../cli/command';
import appCreate from './app-create';
import catalogReindexNames from './catalog-reindex-names';
import migrate from './migrate';
import reportsRebuild from './reports-rebuild';
import seedDemo from './seed-demo';
import seedVolume from './seed-volume';
import tokenIssue from './token-issue';
import tokenRevoke from './token-revoke';
import userCreate from './user-create';
import userDiscountLimits from './user-discount-limits';
import userResetPassword from './user-reset-password';

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
  appCreate,
  tokenIssue,
  tokenRevoke,
];
