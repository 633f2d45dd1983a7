import { ApiPropertyOptional } from '@nestjs/swagger';
import { TrimmedLength } from '@quitanda/http';
import { Allow, IsOptional, IsString, MaxLength } from 'class-validator';

import {
  DESCRIPTION_MAX_LENGTH,
  TITLE_MAX_LENGTH,
} from '../../events.constants';

/** Body of `PATCH /events/:id`: any subset of the writable fields. */
export class UpdateEventDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: TITLE_MAX_LENGTH })
  @IsOptional()
  @TrimmedLength(1, TITLE_MAX_LENGTH)
  title?: string;

  @ApiPropertyOptional({ maxLength: DESCRIPTION_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX_LENGTH)
  description?: string;

  @Allow() id?: unknown;
  @Allow() created_at?: unknown;
  @Allow() updated_at?: unknown;
}
