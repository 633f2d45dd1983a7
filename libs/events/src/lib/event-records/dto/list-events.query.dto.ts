import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

import {
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
} from '../../common/events.constants';

/** Query of `GET /events`; unknown parameters are ignored. */
export class ListEventsQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: LIST_MAX_LIMIT,
    default: LIST_DEFAULT_LIMIT,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(LIST_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({
    description: "Opaque cursor from a previous page's Link header.",
  })
  @IsOptional()
  @IsString()
  cursor?: string;

  @ApiPropertyOptional({
    description:
      'Case-insensitive literal substring of the title or description.',
  })
  @IsOptional()
  @IsString()
  q?: string;
}
