import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class PatchSettingBodyDto {
  @ApiProperty({ description: 'Enable error tracking.' }) active!: boolean;
  @ApiPropertyOptional({ description: 'Use the integrated backend.' })
  integrated?: boolean;
}

export class PutSettingBodyDto {
  @ApiProperty() active!: boolean;
  @ApiProperty() integrated!: boolean;
}
