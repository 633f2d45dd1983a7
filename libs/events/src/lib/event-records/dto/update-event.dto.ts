import { ApiPropertyOptional } from '@nestjs/swagger';
import { TrimmedLength } from '@quitanda/http';
import { Allow, IsOptional } from 'class-validator';

import { TITLE_MAX_LENGTH } from '../../common/events.constants';
import { DescriptionField } from './description-field.decorator';

/** Body of `PATCH /events/:id`: any subset of the writable fields. */
export class UpdateEventDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: TITLE_MAX_LENGTH })
  @IsOptional()
  @TrimmedLength(1, TITLE_MAX_LENGTH)
  title?: string;

  @DescriptionField()
  description?: string;

  @Allow() id?: unknown;
  @Allow() created_at?: unknown;
  @Allow() updated_at?: unknown;
}
