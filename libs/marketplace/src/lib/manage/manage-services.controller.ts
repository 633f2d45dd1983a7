import {
  Body,
  Controller,
  Get,
  Param,
  Post,
  Put,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import {
  ManageCall,
  SERVICE_ENVIRONMENT_SCHEMA,
  SERVICE_SCHEMA,
} from './manage-call.decorator';
import { ManagedServicesService } from './managed-services.service';
import type {
  ServiceEnvironmentView,
  ServiceView,
} from './managed-services.service';
import { objectBody } from './object-body';
import { OperatorAuthGuard } from './operator-auth.guard';

const one = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** External Flex services and their environments (`service create|export`). */
@Controller('manage/v4/services')
@UseGuards(OperatorAuthGuard)
@ApiTags('marketplace: management (kinvey-cli)')
export class ManageServicesController {
  constructor(private readonly services: ManagedServicesService) {}

  @Get()
  @ManageCall(
    "The organization's services and, with appId, the application's",
    { type: 'array', items: SERVICE_SCHEMA },
  )
  list(@Query() query: Record<string, unknown>): Promise<ServiceView[]> {
    return this.services.list({
      appId: one(query['appId']),
      expand: one(query['expand']),
    });
  }

  @Post()
  @ManageCall('Register an External Flex service', SERVICE_SCHEMA, 201)
  create(@Body() body: unknown): Promise<ServiceView> {
    return this.services.create(objectBody(body));
  }

  @Get(':id')
  @ManageCall('A service', SERVICE_SCHEMA)
  get(@Param('id') id: string): Promise<ServiceView> {
    return this.services.get(id);
  }

  @Put(':id')
  @ManageCall('Rename a service or change its description', SERVICE_SCHEMA)
  update(@Param('id') id: string, @Body() body: unknown): Promise<ServiceView> {
    return this.services.update(id, objectBody(body));
  }

  @Get(':id/environments')
  @ManageCall("A service's environments, with their secrets", {
    type: 'array',
    items: SERVICE_ENVIRONMENT_SCHEMA,
  })
  environments(@Param('id') id: string): Promise<ServiceEnvironmentView[]> {
    return this.services.environments(id);
  }

  @Post(':id/environments')
  @ManageCall(
    'Add an environment: the URL and shared secret of the service',
    SERVICE_ENVIRONMENT_SCHEMA,
    201,
  )
  createEnvironment(
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<ServiceEnvironmentView> {
    return this.services.createEnvironment(id, objectBody(body));
  }

  @Put(':id/environments/:svcEnvId')
  @ManageCall('Change a service environment', SERVICE_ENVIRONMENT_SCHEMA)
  updateEnvironment(
    @Param('id') id: string,
    @Param('svcEnvId') svcEnvId: string,
    @Body() body: unknown,
  ): Promise<ServiceEnvironmentView> {
    return this.services.updateEnvironment(id, svcEnvId, objectBody(body));
  }
}
