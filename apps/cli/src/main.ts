import { runCli } from './cli/run';
import { COMMANDS } from './commands/index';

/**
 * Operator commands: `npm run cli -- <command> [--flags]`; `--help` lists them, `<command> --help`
 * shows one's flags (neither loads Nest nor touches the database). Each command loads only what it
 * needs when it runs. JSON result on stdout; messages and progress on stderr; a refusal is one
 * line and a non-zero exit code (64 usage, 65 refused, 78 configuration), an unexpected error its
 * stack (exit 1).
 */
void runCli(process.argv.slice(2), COMMANDS, { stdout: process.stdout, stderr: process.stderr }).then((code) => {
  process.exitCode = code;
  // open handles (a Redis client that failed to connect, a pool) must not keep a finished command alive
  setImmediate(() => process.exit(code));
});
