import { parseArgs } from 'node:util';
import { DomainError, ValidationFailedError } from '@pos/kernel';
import type { INestApplicationContext } from '@nestjs/common';
import type { CliContext, Command, Flags } from './command';
import { CliRefusal, EXIT } from './errors';
import { commandHelp, generalHelp, PROG } from './help';
import { Progress } from './progress';

export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
}

/** Runs `argv` (without node and the script); returns the exit code. Never throws. */
export async function runCli(argv: string[], commands: readonly Command[], io: CliIo): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === undefined) {
      io.stderr.write(generalHelp(commands));
      return EXIT.usage;
    }
    if (name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(generalHelp(commands));
      return 0;
    }
    const command = find(commands, name);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(commandHelp(command));
      return 0;
    }
    const flags = parseFlags(command, rest);
    io.stdout.write(`${JSON.stringify(await execute(command, flags, io), null, 2)}\n`);
    return 0;
  } catch (error) {
    const refusal = describeRefusal(error);
    if (refusal) {
      io.stderr.write(`${refusal.message}\n`);
      return refusal.code;
    }
    io.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    return EXIT.unexpected;
  }
}

function find(commands: readonly Command[], name: string): Command {
  const command = commands.find((c) => c.name === name);
  if (command) return command;
  const near = commands.filter((c) => c.name.startsWith(name.split(':')[0]) || distance(c.name, name) <= 2).map((c) => c.name);
  throw new CliRefusal(`unknown command "${name}"${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; "${PROG} --help" lists the commands`);
}

/** Parses `--flag value` pairs against the command's flags; unknown flags and stray words are refused. */
export function parseFlags(command: Command, args: string[]): Flags {
  const options = Object.fromEntries(Object.entries(command.flags).map(([n, f]) => [n, { type: f.boolean ? ('boolean' as const) : ('string' as const) }]));
  let values: Flags;
  try {
    ({ values } = parseArgs({ args, options, strict: true, allowPositionals: false }));
  } catch (error) {
    const e = error as Error & { code?: string };
    if (!e.code?.startsWith('ERR_PARSE_ARGS')) throw error;
    const unknown = /Unknown option '([^']+)'/.exec(e.message)?.[1];
    const stray = /Unexpected argument '([^']+)'/.exec(e.message)?.[1];
    const detail = unknown
      ? `unknown flag ${unknown}`
      : stray
        ? `unexpected argument "${stray}" (flags are --name value)`
        : e.message.split('\n')[0].replace(/ To specify.*$/, '');
    throw new CliRefusal(`${command.name}: ${detail}; "${PROG} ${command.name} --help" lists its flags`);
  }
  checkFlags(command, values);
  return values;
}

/** Unknown and missing required flags (also for flags given as an object, by runCommand). */
export function checkFlags(command: Command, values: Flags): void {
  const unknown = Object.keys(values).filter((k) => !(k in command.flags));
  if (unknown.length) throw new CliRefusal(`${command.name}: unknown flag --${unknown[0]}; "${PROG} ${command.name} --help" lists its flags`);
  const missing = Object.entries(command.flags)
    .filter(([n, f]) => f.required && (values[n] === undefined || values[n] === ''))
    .map(([n]) => `--${n}`);
  if (missing.length)
    throw new CliRefusal(`${command.name}: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required; "${PROG} ${command.name} --help" shows usage`);
}

/** Loads the configuration (reading .env first) if the command needs it, runs it, closes what it opened. */
async function execute(command: Command, flags: Flags, io: CliIo): Promise<unknown> {
  const config = command.usesConfig === false ? undefined : (await import('../runtime/config')).loadCliConfig();
  const opened: INestApplicationContext[] = [];
  const ctx: CliContext = {
    config: () => {
      if (!config) throw new Error(`${command.name} declared usesConfig: false`);
      return config;
    },
    nest: async (features) => {
      const app = await (await import('../runtime/nest')).createCliContext(ctx.config(), features);
      opened.push(app);
      return app;
    },
    progress: (label, total, unit) => new Progress(label, total, unit, io.stderr),
    // on a TTY, over the progress bar's line (the bar redraws on its next update)
    log: (m) => io.stderr.write(io.stderr.isTTY ? `\r\u001b[K${m}\n` : `${m}\n`),
  };
  try {
    return await command.run(flags, ctx);
  } finally {
    for (const app of opened) await app.close();
  }
}

/** A refusal: what to print and the exit code; undefined for an unexpected error (printed with its stack). */
export function describeRefusal(error: unknown): { message: string; code: number } | undefined {
  if (error instanceof CliRefusal) return { message: error.message, code: error.exitCode };
  if (error instanceof ValidationFailedError)
    return {
      message: Object.entries(error.fields)
        .map(([k, v]) => `${k}: ${v.join(' ')}`)
        .join('; '),
      code: EXIT.refused,
    };
  if (error instanceof DomainError) return { message: error.message, code: EXIT.refused };
  if (error instanceof Error && error.name === 'RebuildRunningError') return { message: error.message, code: EXIT.refused };
  return undefined;
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}
