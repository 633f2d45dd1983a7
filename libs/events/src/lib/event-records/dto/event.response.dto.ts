import { ApiProperty } from '@nestjs/swagger';

import type { EventRecord } from '../event-record';

export class EventResponseDto {
  @ApiProperty({ format: 'uuid', description: 'UUID version 7, time-ordered.' })
  id!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' })
  updated_at!: string;
}

export class EventExistsResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: [true] })
  exists!: true;
}

export function toEventResponse(record: EventRecord): EventResponseDto {
  return {
    id: record.id,
    title: record.title,
    description: record.description,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}
