/** Exit codes (sysexits.h): a refusal is one line on stderr and one of these, never a stack trace. */
export const EXIT = { usage: 64, refused: 65, config: 78, unexpected: 1 } as const;

/**
 * An expected refusal: bad usage (unknown command or flag, a missing or malformed value), input
 * the API would also refuse, or a command that cannot run on this database. Printed as one line.
 */
export class CliRefusal extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliRefusal';
  }
}

/** The former name, kept for callers of runCommand. */
export { CliRefusal as UsageError };
