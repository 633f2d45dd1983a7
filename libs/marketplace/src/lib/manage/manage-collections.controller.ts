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

import { CollectionsService } from '../app-collections/collections.service';
import { COLLECTION_SCHEMA, ManageCall } from './manage-call.decorator';
import { ManagedAppsService } from './managed-apps.service';
import { ManagedBusinessLogicService } from './managed-business-logic.service';
import { dataLinkOf, levelOf, managedCollection } from './managed-collections';
import { objectBody } from './object-body';
import type { ManagedCollection } from './managed-collections';
import { OperatorAuthGuard } from './operator-auth.guard';

/**
 * An environment's collections through the management API; one with a
 * `dataLink` is served by a Flex service object (FlexData).
 */
@Controller('manage/v4/environments/:envId/collections')
@UseGuards(OperatorAuthGuard)
@ApiTags('marketplace: management (kinvey-cli)')
export class ManageCollectionsController {
  constructor(
    private readonly managed: ManagedAppsService,
    private readonly collections: CollectionsService,
    private readonly logic: ManagedBusinessLogicService,
  ) {}

  private appKeyOf(envId: string): Promise<string> {
    return this.managed.appKeyOf(envId);
  }

  @Get()
  @ManageCall("The environment's collections", {
    type: 'array',
    items: COLLECTION_SCHEMA,
  })
  async list(@Param('envId') envId: string): Promise<ManagedCollection[]> {
    const views = await this.collections.list(await this.appKeyOf(envId));
    const links = await this.logic.dataLinks(envId);
    return views.map((view) =>
      managedCollection(view.name, view.settings, links.get(view.name)),
    );
  }

  @Post()
  @ManageCall('Create a collection', COLLECTION_SCHEMA, 201)
  async create(
    @Param('envId') envId: string,
    @Body() raw: unknown,
  ): Promise<ManagedCollection> {
    const body = objectBody(raw);
    const permissions = levelOf(body);
    const link = dataLinkOf(body);
    const appKey = await this.appKeyOf(envId);
    const name = body['name'];
    // Bound first: a service the environment may not use creates nothing.
    const bound =
      link && typeof name === 'string'
        ? await this.logic.setDataLink(envId, name, link)
        : undefined;
    try {
      const created = await this.collections.create(
        appKey,
        name,
        permissions ? { permissions } : {},
      );
      return managedCollection(created.name, created.settings, bound);
    } catch (error) {
      if (bound && typeof name === 'string')
        await this.logic.removeDataLink(envId, name);
      throw error;
    }
  }

  @Get(':name')
  @ManageCall('A collection', COLLECTION_SCHEMA)
  async show(
    @Param('envId') envId: string,
    @Param('name') name: string,
  ): Promise<ManagedCollection> {
    const view = await this.collections.show(await this.appKeyOf(envId), name);
    const links = await this.logic.dataLinks(envId);
    return managedCollection(view.name, view.settings, links.get(name));
  }

  @Put(':name')
  @ManageCall("Set a collection's permissions", COLLECTION_SCHEMA)
  async update(
    @Param('envId') envId: string,
    @Param('name') name: string,
    @Body() body: unknown,
  ): Promise<ManagedCollection> {
    const appKey = await this.appKeyOf(envId);
    const current = await this.collections.show(appKey, name);
    const permissions = levelOf(objectBody(body));
    const link = dataLinkOf(objectBody(body));
    const bound = link
      ? await this.logic.setDataLink(envId, name, link)
      : (await this.logic.dataLinks(envId)).get(name);
    const updated = await this.collections.update(appKey, name, {
      ...current.settings,
      ...(permissions ? { permissions } : {}),
    });
    return managedCollection(updated.name, updated.settings, bound);
  }

  @Delete(':name')
  @HttpCode(204)
  @ManageCall('Delete a collection and its records', undefined, 204)
  async remove(
    @Param('envId') envId: string,
    @Param('name') name: string,
  ): Promise<void> {
    await this.collections.remove(await this.appKeyOf(envId), name);
  }
}
