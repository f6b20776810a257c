import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ForbiddenError, UnauthenticatedError } from '@pos/kernel';
import { DEFAULT_ROUTE_ABILITY, hasAbility, hasPermission, Principal } from '@pos/identity';
import { BearerAuthenticator } from './bearer.strategy';
import { RequestContext } from '@pos/platform';
import { ROUTE_POLICY, RoutePolicy } from './policy.decorators';

/**
 * Authentication (passport-http-bearer, `Authorization: Bearer` only: see BearerAuthenticator)
 * then authorisation from the route's declared policy: token ability, API-application
 * requirement, permission.
 * Store access is checked by the use cases (a filter naming another store: 403; a record of
 * another store: 404).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly bearer: BearerAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<RoutePolicy | undefined>(ROUTE_POLICY, [context.getHandler(), context.getClass()]);
    if (policy?.kind === 'public') return true;
    const req = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    const principal = await this.bearer.authenticate(req.headers.authorization);
    if (!principal) throw new UnauthenticatedError();
    req.user = principal;
    // Audit entries written by the use case name this caller.
    RequestContext.setActor({ userId: principal.userId, name: principal.name });
    if (!policy) throw new ForbiddenError(); // unreachable: the boot check refuses such routes

    if (policy.kind === 'integration') {
      if (!principal.isApiApplication) throw new ForbiddenError('Integration endpoints are for API application users.');
      if (!hasAbility(principal, 'integration:read')) throw new ForbiddenError('The token lacks the integration:read ability.');
    } else if (!hasAbility(principal, DEFAULT_ROUTE_ABILITY)) {
      throw new ForbiddenError('The token does not grant access to this endpoint.');
    }
    if ((policy.kind === 'permission' || policy.kind === 'integration') && !hasPermission(principal, policy.permission)) {
      throw new ForbiddenError(`You do not have the ${policy.permission} permission.`);
    }
    return true;
  }
}
