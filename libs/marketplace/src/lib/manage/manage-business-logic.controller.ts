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

import { HANDLER_SCHEMA, ManageCall } from './manage-call.decorator';
import { ManagedAppsService } from './managed-apps.service';
import { ManagedBusinessLogicService } from './managed-business-logic.service';
import type { HandlerView } from './managed-business-logic.service';
import { objectBody } from './object-body';
import { OperatorAuthGuard } from './operator-auth.guard';

/**
 * An environment's business logic: custom endpoints and collection hooks
 * mapped to External Flex services. Code (common code included) and push
 * are not served: their reads answer empty, their writes have no route.
 */
@Controller('manage/v4/environments/:envId')
@UseGuards(OperatorAuthGuard)
@ApiTags('marketplace: management (kinvey-cli)')
export class ManageBusinessLogicController {
  constructor(
    private readonly logic: ManagedBusinessLogicService,
    private readonly managed: ManagedAppsService,
  ) {}

  @Get('business-logic/endpoints')
  @ManageCall('Custom endpoints and their handlers', {
    type: 'array',
    items: HANDLER_SCHEMA,
  })
  endpoints(@Param('envId') envId: string): Promise<HandlerView[]> {
    return this.logic.endpoints(envId);
  }

  @Post('business-logic/endpoints')
  @ManageCall('Map a custom endpoint to a service handler', HANDLER_SCHEMA, 201)
  createEndpoint(
    @Param('envId') envId: string,
    @Body() body: unknown,
  ): Promise<HandlerView> {
    return this.logic.createEndpoint(envId, objectBody(body));
  }

  @Get('business-logic/endpoints/:name')
  @ManageCall('A custom endpoint', HANDLER_SCHEMA)
  endpoint(
    @Param('envId') envId: string,
    @Param('name') name: string,
  ): Promise<HandlerView> {
    return this.logic.endpoint(envId, name);
  }

  @Put('business-logic/endpoints/:name')
  @ManageCall("Change a custom endpoint's handler", HANDLER_SCHEMA)
  updateEndpoint(
    @Param('envId') envId: string,
    @Param('name') name: string,
    @Body() body: unknown,
  ): Promise<HandlerView> {
    return this.logic.updateEndpoint(envId, name, objectBody(body));
  }

  @Delete('business-logic/endpoints/:name')
  @HttpCode(204)
  @ManageCall('Remove a custom endpoint', undefined, 204)
  deleteEndpoint(
    @Param('envId') envId: string,
    @Param('name') name: string,
  ): Promise<void> {
    return this.logic.deleteEndpoint(envId, name);
  }

  @Get('business-logic/collections')
  @ManageCall('Collection hooks, by collection', {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        collectionName: { type: 'string' },
        hooks: { type: 'array', items: HANDLER_SCHEMA },
      },
    },
  })
  hooks(
    @Param('envId') envId: string,
  ): Promise<{ collectionName: string; hooks: HandlerView[] }[]> {
    return this.logic.hooks(envId);
  }

  @Put('business-logic/collections/:collection/:hook')
  @ManageCall(
    'Map a collection hook (pre-save, post-fetch...) to a service handler',
    HANDLER_SCHEMA,
  )
  putHook(
    @Param('envId') envId: string,
    @Param('collection') collection: string,
    @Param('hook') hook: string,
    @Body() body: unknown,
  ): Promise<HandlerView> {
    return this.logic.putHook(envId, collection, hook, objectBody(body));
  }

  @Get('business-logic/common')
  @ManageCall('Common code: none (code is not served)', {
    type: 'array',
    items: { type: 'object' },
  })
  async commonCode(@Param('envId') envId: string): Promise<never[]> {
    await this.managed.appKeyOf(envId);
    return [];
  }

  @Get('push')
  @ManageCall('Push settings: none (push is not served)', { type: 'object' })
  async push(@Param('envId') envId: string): Promise<object> {
    await this.managed.appKeyOf(envId);
    return {};
  }
}
