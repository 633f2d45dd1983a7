import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpStatus,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiPublic, DATABASE_UNAVAILABLE, NoContent } from '@quitanda/http';
import type { Request, Response } from 'express';

import { LIST_DEFAULT_LIMIT } from '../common/events.constants';
import { ApiProblems } from '../http/openapi';
import { WriteTokenGuard } from '../http/write-token.guard';
import { CreateEventDto } from './dto/create-event.dto';
import {
  EventExistsResponseDto,
  EventResponseDto,
  toEventResponse,
} from './dto/event.response.dto';
import { ListEventsQueryDto } from './dto/list-events.query.dto';
import { UpdateEventDto } from './dto/update-event.dto';
import type { EventRecord } from './event-record';
import {
  etagOf,
  expectedVersionsFromIfMatch,
  ifNoneMatchHits,
} from './event-etag';
import { EventRecordsService } from './event-records.service';

const NOT_FOUND = { description: 'No such event, or not a UUID.' };
const WRITE_TOKEN = {
  description: 'EVENTS_WRITE_TOKEN is set and the bearer token is not it.',
};
const WRITE_ERRORS = {
  400: { description: 'Invalid or unknown fields.' },
  401: WRITE_TOKEN,
  404: NOT_FOUND,
  412: { description: 'If-Match does not match the current ETag.' },
};

const IF_MATCH = {
  name: 'If-Match',
  required: false,
  description: 'Apply only if the event still has this ETag (412 otherwise).',
};

function sendRecord(res: Response, record: EventRecord): EventResponseDto {
  res.setHeader('ETag', etagOf(record));
  return toEventResponse(record);
}

@ApiTags('events')
@ApiProblems({ 503: DATABASE_UNAVAILABLE })
@Controller('events')
export class EventRecordsController {
  constructor(private readonly events: EventRecordsService) {}

  @Post()
  @UseGuards(WriteTokenGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Create an event' })
  @ApiCreatedResponse({ type: EventResponseDto })
  @ApiProblems({
    400: { description: 'Invalid or unknown fields.' },
    401: WRITE_TOKEN,
  })
  async create(
    @Body() body: CreateEventDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EventResponseDto> {
    const record = await this.events.create(body);
    res
      .status(HttpStatus.CREATED)
      .setHeader('Location', `/events/${record.id}`);
    return sendRecord(res, record);
  }

  @Get()
  @ApiPublic()
  @ApiOperation({
    summary: 'List events, newest first, with keyset pagination',
  })
  @ApiOkResponse({
    type: EventResponseDto,
    isArray: true,
    headers: {
      Link: {
        description: 'The next page as `rel="next"`; absent on the last page.',
        schema: { type: 'string' },
      },
    },
  })
  @ApiProblems({ 400: { description: 'An invalid limit or cursor.' } })
  async list(
    @Query() query: ListEventsQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EventResponseDto[]> {
    const limit = query.limit ?? LIST_DEFAULT_LIMIT;
    const page = await this.events.list({
      limit,
      cursor: query.cursor,
      search: query.q,
    });
    if (page.nextCursor) {
      const next = new URLSearchParams({
        limit: String(limit),
        cursor: page.nextCursor,
      });
      if (query.q) next.set('q', query.q);
      res.setHeader('Link', `<${req.path}?${next.toString()}>; rel="next"`);
    }
    return page.items.map(toEventResponse);
  }

  @Get(':id')
  @ApiPublic()
  @ApiOperation({ summary: 'Get one event' })
  @ApiOkResponse({ type: EventResponseDto })
  @ApiProblems({ 404: NOT_FOUND })
  @ApiHeader({ name: 'If-None-Match', required: false })
  @ApiResponse({ status: 304, description: 'Unchanged (If-None-Match).' })
  async get(
    @Param('id') id: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EventResponseDto | undefined> {
    const record = await this.events.get(id);
    if (ifNoneMatchHits(ifNoneMatch, etagOf(record))) {
      res.status(HttpStatus.NOT_MODIFIED).setHeader('ETag', etagOf(record));
      return undefined;
    }
    return sendRecord(res, record);
  }

  @Get(':id/test')
  @ApiPublic()
  @ApiOperation({ summary: 'Cheap existence probe of one event' })
  @ApiOkResponse({ type: EventExistsResponseDto })
  @ApiProblems({ 404: NOT_FOUND })
  async test(@Param('id') id: string): Promise<EventExistsResponseDto> {
    await this.events.assertExists(id);
    return { id, exists: true };
  }

  @Patch(':id')
  @UseGuards(WriteTokenGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Change the title and/or description' })
  @ApiHeader(IF_MATCH)
  @ApiOkResponse({ type: EventResponseDto })
  @ApiProblems(WRITE_ERRORS)
  async update(
    @Param('id') id: string,
    @Body() body: UpdateEventDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EventResponseDto> {
    const record = await this.events.update(
      id,
      { title: body.title, description: body.description },
      expectedVersionsFromIfMatch(ifMatch, id),
    );
    return sendRecord(res, record);
  }

  @Put(':id')
  @UseGuards(WriteTokenGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Replace an event (same rules as create)' })
  @ApiHeader(IF_MATCH)
  @ApiOkResponse({ type: EventResponseDto })
  @ApiProblems(WRITE_ERRORS)
  async replace(
    @Param('id') id: string,
    @Body() body: CreateEventDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EventResponseDto> {
    const record = await this.events.replace(
      id,
      { title: body.title, description: body.description },
      expectedVersionsFromIfMatch(ifMatch, id),
    );
    return sendRecord(res, record);
  }

  @Delete(':id')
  @UseGuards(WriteTokenGuard)
  @NoContent()
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Delete an event' })
  @ApiHeader(IF_MATCH)
  @ApiProblems(WRITE_ERRORS)
  async delete(
    @Param('id') id: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    await this.events.delete(id, expectedVersionsFromIfMatch(ifMatch, id));
  }
}
