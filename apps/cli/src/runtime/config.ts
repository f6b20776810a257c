import { AppConfig, ConfigError, loadConfig } from '@pos/platform/config/app-config';
import { readEnvFile } from '@pos/platform/config/env-file';
import { CliRefusal, EXIT } from '../cli/errors';

/** `.env` (or ENV_FILE) first, the environment winning, as the API and the worker do; a bad variable exits 78. */
export function loadCliConfig(): AppConfig {
  try {
    readEnvFile();
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliRefusal(error.message, EXIT.config);
    throw error;
  }
}
