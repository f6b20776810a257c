import { INestApplicationContext } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@pos/platform';
import type { CliContext, Flags } from './cli/command';
import { CliRefusal } from './cli/errors';
import { PROG } from './cli/help';
import { Progress, ProgressStream } from './cli/progress';
import { checkFlags } from './cli/run';
import { COMMANDS } from './commands/index';

export { CliRefusal, UsageError } from './cli/errors';

/**
 * Runs one command inside an existing Nest application context (tests, and tools that hold one):
 * the same flag checks, validation and use cases as the CLI, without its process around it. Progress
 * and messages go to `stderr` (by default nowhere).
 */
export async function runCommand(
  app: INestApplicationContext,
  command: string | undefined,
  flags: Flags,
  stderr: ProgressStream = { write: () => true },
): Promise<unknown> {
  const found = COMMANDS.find((c) => c.name === command);
  if (!found) throw new CliRefusal(`unknown command "${command}"; "${PROG} --help" lists the commands`);
  checkFlags(found, flags);
  const ctx: CliContext = {
    config: () => app.get<AppConfig>(APP_CONFIG),
    nest: () => Promise.resolve(app),
    progress: (label, total, unit) => new Progress(label, total, unit, stderr),
    log: (m) => stderr.write(`${m}\n`),
  };
  return found.run(flags, ctx);
}
