import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TrimmedLength } from '@quitanda/http';
import { Allow, IsOptional, IsString, MaxLength } from 'class-validator';

import {
  DESCRIPTION_MAX_LENGTH,
  TITLE_MAX_LENGTH,
} from '../../events.constants';

/** Body of `POST /events` and `PUT /events/:id`. */
export class CreateEventDto {
  @ApiProperty({
    minLength: 1,
    maxLength: TITLE_MAX_LENGTH,
    example: 'Harvest fair',
  })
  @TrimmedLength(1, TITLE_MAX_LENGTH)
  title!: string;

  @ApiPropertyOptional({ maxLength: DESCRIPTION_MAX_LENGTH, default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX_LENGTH)
  description?: string;

  // Server-maintained fields that clients echo back are accepted and ignored.
  @Allow() id?: unknown;
  @Allow() created_at?: unknown;
  @Allow() updated_at?: unknown;
}
