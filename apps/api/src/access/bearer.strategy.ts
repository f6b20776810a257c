import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { Principal, TokenService } from '@pos/identity';

/** Authorization: Bearer <token>, resolved to a Principal (or 401). */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly tokens: TokenService) {
    super();
  }

  async validate(token: string): Promise<Principal | false> {
    return (await this.tokens.authenticate(token)) ?? false;
  }
}
