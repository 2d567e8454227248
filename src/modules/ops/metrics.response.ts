import { ApiProperty } from '@nestjs/swagger';

/** `/api/metrics/` body, Weblate 4.x key order (weblate-api.md §6.13; 4.x has no `version`). */
export class ApiMetricsResponse {
  @ApiProperty({ description: 'Translation units (strings) in all translations' })
  units!: number;
  @ApiProperty({ description: 'Units in a translated state (translated, approved or read-only)' })
  units_translated!: number;
  @ApiProperty()
  users!: number;
  @ApiProperty()
  changes!: number;
  @ApiProperty()
  projects!: number;
  @ApiProperty()
  components!: number;
  @ApiProperty()
  translations!: number;
  @ApiProperty({ description: 'Languages that have at least one translation' })
  languages!: number;
  @ApiProperty({ description: 'Failing quality checks (Glossa runs no checks: always 0)' })
  checks!: number;
  @ApiProperty({ description: 'Component configuration errors (none are recorded: always 0)' })
  configuration_errors!: number;
  @ApiProperty({ description: 'Suggestions (not supported: always 0)' })
  suggestions!: number;
  @ApiProperty({
    description: 'Jobs waiting per background queue (Weblate: per Celery queue)',
    type: 'object',
    additionalProperties: { type: 'integer' },
  })
  celery_queues!: Record<string, number>;
  @ApiProperty({ description: 'Site title (SITE_TITLE)' })
  name!: string;
}
