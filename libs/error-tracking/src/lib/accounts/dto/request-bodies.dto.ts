import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** OpenAPI description of `POST /users` (parameters in the body or query). */
export class CreateUserBodyDto {
  @ApiProperty() username!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
  @ApiPropertyOptional({ minLength: 8, description: 'For the web UI sign-in.' })
  password?: string;
  @ApiPropertyOptional({ default: false }) admin?: boolean;
}

export class CreateTokenBodyDto {
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['api', 'read_api'], isArray: true }) scopes!: string[];
  @ApiPropertyOptional({
    format: 'date',
    description: 'The token stops working on this day (UTC).',
  })
  expires_at?: string;
}
