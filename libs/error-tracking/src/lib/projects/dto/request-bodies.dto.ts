import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class CreateProjectBodyDto {
  @ApiPropertyOptional({ description: 'Name; or give only `path`.' })
  name?: string;
  @ApiPropertyOptional({
    description: 'Unique slug; derived from the name when absent.',
  })
  path?: string;
  @ApiPropertyOptional() description?: string;
}

export class AddMemberBodyDto {
  @ApiProperty() user_id!: number;
  @ApiProperty({
    enum: [10, 20, 30, 40, 50],
    description: 'guest 10 .. owner 50',
  })
  access_level!: number;
}
