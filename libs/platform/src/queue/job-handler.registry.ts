import { Injectable, Logger, OnApplicationBootstrap, SetMetadata } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ClsService } from 'nestjs-cls';
import { allJobDefinitions, JobDefinition } from './job-definition';

const JOB_HANDLER = Symbol('JOB_HANDLER');

/** Marks a provider method as the handler of a job definition. */
export const JobHandler = <P>(def: JobDefinition<P>): MethodDecorator => SetMetadata(JOB_HANDLER, def.name);

export type JobFn = (payload: unknown, meta: { attempt: number; jobId?: string }) => Promise<unknown>;

/**
 * Finds every @JobHandler at boot and checks that each defined job has exactly one handler,
 * so a job can never be enqueued that nothing would ever run.
 */
@Injectable()
export class JobHandlerRegistry implements OnApplicationBootstrap {
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<string, JobFn>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly cls: ClsService,
  ) {}

  onApplicationBootstrap(): void {
    this.scan();
  }

  scan(): void {
    if (this.handlers.size > 0) return;
    const duplicates: string[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || wrapper.isNotMetatype) continue;
      const proto = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const fn = instance[method] as (...args: unknown[]) => unknown;
        const name = this.reflector.get<string | undefined>(JOB_HANDLER, fn);
        if (!name) continue;
        if (this.handlers.has(name)) duplicates.push(name);
        // A fresh CLS context per run: a job never joins the transaction of the request that
        // enqueued it, nor carries its facts, write deadline or read scope (in-process jobs would
        // otherwise inherit its async context; every platform context is a key of this one).
        this.handlers.set(name, (payload, meta) => this.cls.run({ ifNested: 'override' }, () => Promise.resolve(fn.call(instance, payload, meta))));
      }
    }
    const missing = allJobDefinitions()
      .map((d) => d.name)
      .filter((n) => !this.handlers.has(n));
    if (duplicates.length || missing.length) {
      throw new Error(
        `Job handler check failed: ${[...duplicates.map((n) => `${n} has more than one handler`), ...missing.map((n) => `${n} has no handler`)].join('; ')}`,
      );
    }
    this.logger.log(`${this.handlers.size} job handler(s) registered`);
  }

  get(name: string): JobFn {
    this.scan();
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`No handler for job ${name}`);
    return handler;
  }
}
