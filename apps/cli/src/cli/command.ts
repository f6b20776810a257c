import type { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import type { AppConfig } from '@pos/platform';
import type { Progress } from './progress';

/** One flag of a command: `--name VALUE` (or a bare `--name` when boolean). */
export interface FlagSpec {
  description: string;
  /** Placeholder shown in help, e.g. EMAIL. */
  value?: string;
  required?: boolean;
  boolean?: boolean;
}

export type Flags = Record<string, string | boolean | undefined>;

/** What a command may use; each piece loads only when the command asks for it. */
export interface CliContext {
  /** The configuration (`.env` read first, as the API does). */
  config(): AppConfig;
  /** A Nest application context with the platform modules and these feature modules. */
  nest(features: (Type<unknown> | DynamicModule)[]): Promise<INestApplicationContext>;
  /** A progress bar on stderr (a TTY), or periodic progress lines (not a TTY). */
  progress(label: string, total: number, unit?: string): Progress;
  /** One line to stderr (stdout keeps the JSON result). */
  log(message: string): void;
}

/**
 * An operator command. Its file must stay light: type-only imports at the top and `await
 * import('../runtime/...')` inside `run`, so `--help` and other commands never load it all.
 */
export interface Command {
  name: string;
  summary: string;
  description?: string;
  flags: Record<string, FlagSpec>;
  examples: string[];
  /** False for a command that never touches the database or the configuration. */
  usesConfig?: boolean;
  run(flags: Flags, ctx: CliContext): Promise<unknown>;
}

export const defineCommand = (command: Command): Command => command;
