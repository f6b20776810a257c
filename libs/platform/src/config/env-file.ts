import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from './app-config';

export interface EnvFileResult {
  /** The file read, or undefined when there was none. */
  path?: string;
  /** Variables taken from the file (the ones the environment did not already set). */
  applied: string[];
}

/**
 * Reads `.env` from the working directory (or the file ENV_FILE names) into `env`, the way
 * `node --env-file` and Nest's ConfigModule do: the real environment always wins, so a deploy's
 * variables are never overridden by a file left on the disk. A missing default `.env` is not an
 * error; a missing ENV_FILE is, since someone asked for it by name.
 */
export function readEnvFile(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): EnvFileResult {
  const named = env.ENV_FILE;
  const path = resolve(cwd, named ?? '.env');
  if (!existsSync(path)) {
    if (named !== undefined) throw new ConfigError([`ENV_FILE names ${path}, which does not exist`]);
    return { applied: [] };
  }
  const parsed = parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
  const applied: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (env[key] !== undefined) continue;
    env[key] = value;
    applied.push(key);
  }
  return { path, applied };
}
