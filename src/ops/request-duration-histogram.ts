type Labels = { method: string; route: string; status_code: string };

/** One line of the export, as prom-client's registry reads it (`metricName` picks `_bucket`, `_sum` or `_count`). */
export interface ExportedValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/** What prom-client's registry reads of a metric at scrape time (its typings name only its own metric classes). */
export interface ExportedMetric {
  name: string;
  help: string;
  type: 'histogram';
  values: ExportedValue[];
  aggregator: 'sum';
}

/** One label set's counts: per bucket (not cumulative; the last slot is above every bound), sum and count. */
interface Series {
  labels: Labels;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The request-latency histogram (`glossa_http_request_duration_seconds`), observed once per HTTP response.
 *
 * prom-client's Histogram validated the label object, hashed it into a sorted string and built a closure on
 * every observation: about 4 µs of each request's CPU, a few percent of the cheapest reads (docs/performance.md,
 * "The request pipeline, session 21"). This keeps one series per (method, route, status) under a plain string
 * key and counts into a typed array; the label values are bounded by the caller (route patterns, not raw paths).
 * It is registered on the app's prom-client registry as a metric object and exported in prom-client's own
 * histogram shape (cumulative `_bucket` lines with `le`, then `_sum` and `_count` per series), which
 * request-duration-histogram.spec.ts compares with prom-client's Histogram fed the same observations.
 */
export class RequestDurationHistogram {
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    /** Upper bounds in increasing order; `+Inf` is implied. */
    private readonly bounds: readonly number[],
  ) {}

  observe(method: string, route: string, statusCode: number, seconds: number): void {
    const key = `${method} ${statusCode} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = { labels: { method, route, status_code: String(statusCode) }, buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    let slot = 0;
    while (slot < this.bounds.length && seconds > this.bounds[slot]) slot++;
    series.buckets[slot] += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** prom-client's Metric interface: the values at scrape time. */
  get(): Promise<ExportedMetric> {
    const values: ExportedValue[] = [];
    for (const series of this.series.values()) {
      let cumulative = 0;
      for (let slot = 0; slot <= this.bounds.length; slot++) {
        cumulative += series.buckets[slot];
        const le = slot < this.bounds.length ? this.bounds[slot] : '+Inf';
        values.push({ labels: { le, ...series.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { ...series.labels }, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...series.labels }, value: series.count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }

  reset(): void {
    this.series.clear();
  }
}
