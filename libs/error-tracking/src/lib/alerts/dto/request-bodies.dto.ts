import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class HookBodyDto {
  @ApiProperty({
    description:
      'http(s) URL; local addresses need ALERTS_ALLOW_LOCAL_TARGETS.',
  })
  url!: string;
  @ApiPropertyOptional({
    description: 'Secret sent as X-Gitlab-Token (write-only).',
  })
  token?: string;
  @ApiPropertyOptional({ default: true }) error_tracking_events?: boolean;
  @ApiPropertyOptional({ default: true }) enable_ssl_verification?: boolean;
}

export class AlertRulesBodyDto {
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'null turns `frequent` off.',
  })
  frequent_threshold!: number | null;
  @ApiPropertyOptional({ default: 60 }) frequent_window_minutes?: number;
}
