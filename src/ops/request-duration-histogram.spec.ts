import { Histogram, type Metric, Registry } from 'prom-client';
import { RequestDurationHistogram } from './request-duration-histogram';

const NAME = 'glossa_http_request_duration_seconds';
const HELP = 'HTTP request latency';
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Observation = [method: string, route: string, status: number, seconds: number];

/** The registry's text with this histogram, and with prom-client's own fed the same observations. */
async function bothExports(observations: readonly Observation[]): Promise<[string, string]> {
  const ours = new Registry();
  const histogram = new RequestDurationHistogram(NAME, HELP, BOUNDS);
  ours.registerMetric(histogram as unknown as Metric);
  const reference = new Registry();
  const promHistogram = new Histogram({ name: NAME, help: HELP, labelNames: ['method', 'route', 'status_code'], buckets: BOUNDS, registers: [reference] });
  for (const [method, route, status, seconds] of observations) {
    histogram.observe(method, route, status, seconds);
    promHistogram.observe({ method, route, status_code: String(status) }, seconds);
  }
  return [await ours.metrics(), await reference.metrics()];
}

describe('RequestDurationHistogram', () => {
  it('exports exactly what prom-client’s Histogram exports for the same observations', async () => {
    const [ours, reference] = await bothExports([
      ['GET', '/api/', 200, 0.0004],
      ['GET', '/api/', 200, 0.005], // on a bound: counted in that bucket (le is "less or equal")
      ['GET', '/api/', 200, 0.0051],
      ['GET', '/api/projects/:project/', 404, 0.3],
      ['POST', '/api/projects/', 201, 12], // above every bound: only +Inf
      ['GET', '/api/', 304, 0.02],
      ['GET', '/api/', 200, 1],
    ]);
    expect(ours).toBe(reference);
    expect(ours).toContain(`${NAME}_bucket{le="0.005",method="GET",route="/api/",status_code="200"} 2\n`);
    expect(ours).toContain(`${NAME}_bucket{le="+Inf",method="POST",route="/api/projects/",status_code="201"} 1\n`);
    expect(ours).toContain(`${NAME}_count{method="GET",route="/api/",status_code="200"} 4\n`);
  });

  it('exports only its HELP and TYPE lines before the first observation, as prom-client does', async () => {
    const [ours, reference] = await bothExports([]);
    expect(ours).toBe(reference);
  });

  it('starts over on reset', async () => {
    const histogram = new RequestDurationHistogram(NAME, HELP, BOUNDS);
    histogram.observe('GET', '/api/', 200, 0.1);
    histogram.reset();
    expect((await histogram.get()).values).toEqual([]);
  });
});
