import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiApplicationService, Principal } from '@pos/identity';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { MessageResult } from '../http/envelope';
import { IdPipe } from '../http/id.pipe';
import { PageQueryDto, pageRequest } from '../http/page-query.dto';
import { CreateApiApplicationDto, IssueTokenDto } from './auth.dto';
import { ApiApplication, ApiApplicationDetail, IssuedApiToken } from './identity.responses';
import { ApiEnvelope, ApiMessage } from '../http/openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';

@ApiTags('API applications')
@Controller('api-applications')
@RequirePermission('api_applications.manage')
export class ApiApplicationsController {
  constructor(private readonly apps: ApiApplicationService) {}

  @Get()
  @ApiOperation({ summary: 'List API application users' })
  @ApiEnvelope(ApiApplication, { paginated: true })
  list(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto) {
    return this.apps.list(p, pageRequest(query, { default: 50, max: 100 }));
  }

  @Post()
  @IdempotentCreate()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API application user with permissions' })
  @ApiEnvelope(ApiApplicationDetail, { status: 201 })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateApiApplicationDto) {
    return this.apps.create(p, { name: body.name, permissions: body.permissions, storeIds: body.store_ids });
  }

  @Get(':user')
  @ApiOperation({ summary: 'Show an API application and its tokens (never the token secrets)' })
  @ApiEnvelope(ApiApplicationDetail)
  show(@CurrentPrincipal() p: Principal, @Param('user', IdPipe) id: number) {
    return this.apps.show(p, id);
  }

  @Post(':user/tokens')
  @IdempotentCreate({ secrets: ['token'] })
  @HttpCode(201)
  @ApiOperation({ summary: 'Issue a token with explicit abilities; the token is shown once' })
  @ApiEnvelope(IssuedApiToken, { status: 201 })
  issueToken(@CurrentPrincipal() p: Principal, @Param('user', IdPipe) id: number, @Body() body: IssueTokenDto) {
    return this.apps.issueToken(p, id, { name: body.name, abilities: body.abilities, expiresInMinutes: body.expires_in_minutes });
  }

  @Delete(':user/tokens/:token')
  @ApiOperation({ summary: 'Revoke a token' })
  @ApiMessage()
  async revokeToken(@CurrentPrincipal() p: Principal, @Param('user', IdPipe) id: number, @Param('token', IdPipe) tokenId: number) {
    await this.apps.revokeToken(p, id, tokenId);
    return new MessageResult('Token revoked.');
  }
}
