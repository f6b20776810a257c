import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ROUTE_POLICY } from './policy.decorators';

/** Refuses to boot when a route does not declare its access policy (no accidental open route). */
@Injectable()
export class RoutePolicyCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const missing: string[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const { metatype, instance } = wrapper;
      if (!metatype || !instance) continue;
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object)) {
        const handler = (instance as Record<string, unknown>)[method] as (...args: unknown[]) => unknown;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        if (!this.reflector.getAllAndOverride(ROUTE_POLICY, [handler, metatype])) missing.push(`${metatype.name}.${method}`);
      }
    }
    if (missing.length) throw new Error(`Routes without an access policy: ${missing.join(', ')}`);
  }
}
