import { ApiProperty } from '@nestjs/swagger';

import type { ReleaseHealth } from '../release-health.service';

export class ReleaseHealthResponseDto {
  @ApiProperty({ example: '1.2.3' }) release!: string;
  @ApiProperty({ example: 'production' }) environment!: string;
  @ApiProperty({
    description: 'Distinct sessions started plus aggregated sessions.',
  })
  sessions!: number;
  @ApiProperty() errored!: number;
  @ApiProperty() crashed!: number;
  @ApiProperty() abnormal!: number;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: '0..1; null without sessions.',
  })
  crash_free_rate!: number | null;
}

export function toReleaseHealthResponse(
  health: ReleaseHealth,
): ReleaseHealthResponseDto {
  return {
    release: health.release,
    environment: health.environment,
    sessions: health.sessions,
    errored: health.errored,
    crashed: health.crashed,
    abnormal: health.abnormal,
    crash_free_rate: health.crashFreeRate,
  };
}
