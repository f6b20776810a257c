/**
 * SIGTERM/SIGINT for the api and worker mains: close the application (which drains first:
 * HttpDrain, QueueLifecycle) and exit 0; a shutdown that hangs past `timeoutMs` exits 1.
 * Nest's enableShutdownHooks is not used: it re-raises the signal after closing, so the process
 * would never exit 0.
 */
export function exitGracefullyOn(app: { close(): Promise<void> }, timeoutMs: number): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => process.exit(1), timeoutMs).unref();
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}
