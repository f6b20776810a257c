import { ModuleRef } from '@nestjs/core';

type Token<T> = abstract new (...args: never[]) => T;

/**
 * Resolves a port that a context declares and a context above it implements (a binding the
 * lower one cannot import without a cycle). Call it from onModuleInit: every provider exists by
 * then, so a missing binding stops the boot with a message naming what to import, instead of
 * failing (or silently falling back) at the first request.
 */
export function requirePort<T>(moduleRef: ModuleRef, port: Token<T>, consumer: string, boundBy: string): T {
  try {
    return moduleRef.get(port, { strict: false });
  } catch {
    throw new Error(`${consumer} needs ${port.name}, which ${boundBy} binds: import ${boundBy} in this application's module.`);
  }
}
