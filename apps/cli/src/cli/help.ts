import type { Command } from './command';

export const PROG = 'npm run cli --';

/** `cli --help`: every command and its summary. */
export function generalHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `usage: ${PROG} <command> [--flags]`,
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `"${PROG} <command> --help" shows a command's flags and examples.`,
    'Reads .env (or the file ENV_FILE names) like the API; prints JSON on stdout, messages and progress on stderr.',
    'Exit codes: 0 done, 64 bad usage, 65 refused (invalid input, or a refusal of the service), 78 bad configuration, 1 unexpected error.',
    '',
  ].join('\n');
}

/** `cli <command> --help`: its description, flags and examples. */
export function commandHelp(c: Command): string {
  const flags = Object.entries(c.flags).map(([name, f]) => [
    `--${name}${f.boolean ? '' : ` ${f.value ?? 'VALUE'}`}`,
    `${f.description}${f.required ? ' (required)' : ''}`,
  ]);
  flags.push(['--help', 'show this help']);
  const width = Math.max(...flags.map(([l]) => l.length));
  const required = Object.entries(c.flags)
    .filter(([, f]) => f.required)
    .map(([name, f]) => `--${name} ${f.value ?? 'VALUE'}`);
  return [
    `usage: ${PROG} ${[c.name, ...required].join(' ')}${flags.length > required.length + 1 ? ' [options]' : ''}`,
    '',
    c.summary,
    ...(c.description ? ['', c.description] : []),
    '',
    'flags:',
    ...flags.map(([l, d]) => `  ${l.padEnd(width)}  ${d}`),
    '',
    'examples:',
    ...c.examples.map((e) => `  ${PROG} ${e}`),
    '',
  ].join('\n');
}
