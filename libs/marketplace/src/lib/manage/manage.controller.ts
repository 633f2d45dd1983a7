import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import {
  APP_SCHEMA,
  ENVIRONMENT_SCHEMA,
  ManageCall,
  ORGANIZATION_SCHEMA,
} from './manage-call.decorator';
import { ManagedAppsService } from './managed-apps.service';
import type { AppView, EnvironmentView } from './managed-views';
import { objectBody } from './object-body';
import { CallingOperator, OperatorAuthGuard } from './operator-auth.guard';
import type { Operator } from './operator-sessions.service';

const list = (items: object) => ({ type: 'array' as const, items });

/**
 * Kinvey's management API (v4) for kinvey-cli: the organization, the
 * applications and their environments. Every operator manages them all.
 */
@Controller('manage/v4')
@UseGuards(OperatorAuthGuard)
@ApiTags('marketplace: management (kinvey-cli)')
export class ManageController {
  constructor(private readonly managed: ManagedAppsService) {}

  @Get('user')
  @ManageCall('The operator logged in', {
    type: 'object',
    properties: { id: { type: 'string' }, email: { type: 'string' } },
  })
  user(@CallingOperator() operator: Operator): Operator {
    return { id: operator.id, email: operator.email };
  }

  @Get('organizations')
  @ManageCall(
    'The organization (one: the installation)',
    list(ORGANIZATION_SCHEMA),
  )
  organizations(): object[] {
    return this.managed.organizations();
  }

  @Get('organizations/:id')
  @ManageCall('The organization', ORGANIZATION_SCHEMA)
  organization(@Param('id') id: string): object {
    return this.managed.organization(id);
  }

  @Get('organizations/:id/apps')
  @ManageCall("The organization's applications", list(APP_SCHEMA))
  organizationApps(@Param('id') id: string): Promise<AppView[]> {
    this.managed.organization(id);
    return this.managed.listApps();
  }

  @Get('apps')
  @ManageCall('The applications', list(APP_SCHEMA))
  apps(): Promise<AppView[]> {
    return this.managed.listApps();
  }

  @Post('apps')
  @ManageCall('Create an application (no environment yet)', APP_SCHEMA, 201)
  createApp(@Body() body: unknown): Promise<AppView> {
    return this.managed.createApp(objectBody(body));
  }

  @Get('apps/:id')
  @ManageCall('An application with its environments', APP_SCHEMA)
  app(@Param('id') id: string): Promise<AppView> {
    return this.managed.app(id);
  }

  @Put('apps/:id')
  @ManageCall('Rename an application', APP_SCHEMA)
  updateApp(@Param('id') id: string, @Body() body: unknown): Promise<AppView> {
    return this.managed.updateApp(id, objectBody(body));
  }

  @Delete('apps/:id')
  @HttpCode(204)
  @ManageCall(
    'Delete an application, its environments and all their data',
    undefined,
    204,
  )
  deleteApp(@Param('id') id: string): Promise<void> {
    return this.managed.deleteApp(id);
  }

  @Get('apps/:id/environments')
  @ManageCall("An application's environments", list(ENVIRONMENT_SCHEMA))
  environments(@Param('id') id: string): Promise<readonly EnvironmentView[]> {
    return this.managed.environments(id);
  }

  @Post('apps/:id/environments')
  @ManageCall(
    'Create an environment: a marketplace app with its own key and secrets',
    ENVIRONMENT_SCHEMA,
    201,
  )
  createEnvironment(
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<EnvironmentView> {
    return this.managed.createEnvironment(id, objectBody(body));
  }

  @Get('environments/:envId')
  @ManageCall('An environment with its secrets', ENVIRONMENT_SCHEMA)
  environment(@Param('envId') envId: string): Promise<EnvironmentView> {
    return this.managed.environment(envId);
  }

  @Put('environments/:envId')
  @ManageCall('Rename an environment', ENVIRONMENT_SCHEMA)
  updateEnvironment(
    @Param('envId') envId: string,
    @Body() body: unknown,
  ): Promise<EnvironmentView> {
    return this.managed.updateEnvironment(envId, objectBody(body));
  }

  @Delete('environments/:envId')
  @HttpCode(204)
  @ManageCall('Delete an environment and all its data', undefined, 204)
  deleteEnvironment(@Param('envId') envId: string): Promise<void> {
    return this.managed.deleteEnvironment(envId);
  }
}
