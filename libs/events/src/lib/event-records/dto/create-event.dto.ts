import { ApiProperty } from '@nestjs/swagger';
import { TrimmedLength } from '@quitanda/http';
import { Allow } from 'class-validator';

import { TITLE_MAX_LENGTH } from '../../common/events.constants';
import { DescriptionField } from './description-field.decorator';

/** Body of `POST /events` and `PUT /events/:id`. */
export class CreateEventDto {
  @ApiProperty({
    minLength: 1,
    maxLength: TITLE_MAX_LENGTH,
    example: 'Harvest fair',
  })
  @TrimmedLength(1, TITLE_MAX_LENGTH)
  title!: string;

  @DescriptionField({ default: '' })
  description?: string;

  // Server-maintained fields that clients echo back are accepted and ignored.
  @Allow() id?: unknown;
  @Allow() created_at?: unknown;
  @Allow() updated_at?: unknown;
}
