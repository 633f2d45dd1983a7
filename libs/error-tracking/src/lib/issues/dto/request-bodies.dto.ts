import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class CreateIssueBodyDto {
  @ApiProperty() title!: string;
  @ApiPropertyOptional({ description: 'Markdown.' }) description?: string;
  @ApiPropertyOptional({ description: 'Comma-separated label names.' })
  labels?: string;
}

export class UpdateIssueBodyDto {
  @ApiPropertyOptional() title?: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional() labels?: string;
  @ApiPropertyOptional({ enum: ['close', 'reopen'] }) state_event?: string;
}
