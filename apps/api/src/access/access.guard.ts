import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ForbiddenError, UnauthenticatedError } from '@pos/kernel';
import { DEFAULT_ROUTE_ABILITY, hasAbility, hasPermission, Principal } from '@pos/identity';
import { ROUTE_POLICY, RoutePolicy } from './policy.decorators';

/**
 * Authentication (passport bearer) then authorisation from the route's declared policy:
 * token ability, API-application requirement, permission. Store access is checked by the use
 * cases (a filter naming another store: 403; a record of another store: 404).
 */
@Injectable()
export class AccessGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<RoutePolicy | undefined>(ROUTE_POLICY, [context.getHandler(), context.getClass()]);
    if (policy?.kind === 'public') return true;
    await (super.canActivate(context) as Promise<boolean>);
    const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user;
    if (!principal) throw new UnauthenticatedError();
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

  override handleRequest<T>(err: unknown, user: T): T {
    if (err || !user) throw new UnauthenticatedError();
    return user;
  }
}
