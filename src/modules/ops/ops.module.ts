import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { OpsMetricsService } from './ops-metrics.service';

/** Weblate's JSON metrics; Prometheus metrics, health and logging live in src/ops (outside /api/). */
@Module({ controllers: [MetricsController], providers: [OpsMetricsService] })
export class OpsModule {}
