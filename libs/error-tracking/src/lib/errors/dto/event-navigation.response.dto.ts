import { ApiProperty } from '@nestjs/swagger';

import type { EventNeighbours } from '../error.types';

const EVENT_ID = {
  type: String,
  nullable: true,
  example: 'fc6d8c0c43fc4630ad850ee518f1b9d0',
};

/** Where to step from one event of an error, by the events' time. */
export class EventNavigationResponseDto {
  @ApiProperty({ example: 'fc6d8c0c43fc4630ad850ee518f1b9d0' })
  event_id!: string;
  @ApiProperty({ ...EVENT_ID, description: "The error's first event." })
  oldest_event_id!: string | null;
  @ApiProperty({
    ...EVENT_ID,
    description: 'The one before; null at the oldest.',
  })
  older_event_id!: string | null;
  @ApiProperty({
    ...EVENT_ID,
    description: 'The one after; null at the latest.',
  })
  newer_event_id!: string | null;
  @ApiProperty({ ...EVENT_ID, description: "The error's last event." })
  latest_event_id!: string | null;
}

export function toEventNavigationResponse(
  eventId: string,
  neighbours: EventNeighbours,
): EventNavigationResponseDto {
  return {
    event_id: eventId,
    oldest_event_id: neighbours.oldest,
    older_event_id: neighbours.older,
    newer_event_id: neighbours.newer,
    latest_event_id: neighbours.latest,
  };
}
