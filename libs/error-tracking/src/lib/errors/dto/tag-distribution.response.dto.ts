import { ApiProperty } from '@nestjs/swagger';

import type { TagKeyDistribution } from '../tag-distribution';

export class TagValueResponseDto {
  @ApiProperty({ example: 'Chrome 120.0' }) value!: string;
  @ApiProperty({ description: 'Kept events with this value.' }) count!: number;
  @ApiProperty({
    description: 'count / the events that carry the key, 0..1.',
    example: 0.75,
  })
  share!: number;
  @ApiProperty({ format: 'date-time' }) last_seen!: string;
}

export class TagKeyResponseDto {
  @ApiProperty({ example: 'browser' }) key!: string;
  @ApiProperty({ description: 'Kept events that carry the key.' })
  total!: number;
  @ApiProperty() unique_values!: number;
  @ApiProperty({
    type: TagValueResponseDto,
    isArray: true,
    description: 'At most 10, most frequent first.',
  })
  top_values!: TagValueResponseDto[];
}

export function toTagKeyResponse(key: TagKeyDistribution): TagKeyResponseDto {
  return {
    key: key.key,
    total: key.total,
    unique_values: key.uniqueValues,
    top_values: key.topValues.map((value) => ({
      value: value.value,
      count: value.count,
      share: value.share,
      last_seen: value.lastSeen.toISOString(),
    })),
  };
}
