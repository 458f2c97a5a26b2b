/**
 * The Prometheus text exposition format (version 0.0.4), as much of it as our series need:
 * counters, gauges and histograms with labels. Small enough to write rather than depend on.
 */

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** The path of the exposition, when metrics are on. */
export const METRICS_PATH = '/metrics';

export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  labels: Labels;
  value: number;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function formatLabels(labels: Labels): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return pairs.length ? `{${pairs.join(',')}}` : '';
}

/** One metric family: its HELP and TYPE lines, then one line per sample. */
export function family(
  name: string,
  type: 'counter' | 'gauge' | 'histogram',
  help: string,
  samples: readonly (Sample & { suffix?: string })[],
): string {
  const lines = [`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`];
  lines.push(`# TYPE ${name} ${type}`);
  for (const sample of samples) {
    lines.push(
      `${name}${sample.suffix ?? ''}${formatLabels(sample.labels)} ${formatValue(sample.value)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Counts of observations at or under each upper bound, plus their sum. */
export class Histogram {
  readonly #bounds: readonly number[];
  readonly #series = new Map<
    string,
    { labels: Labels; buckets: number[]; sum: number; count: number }
  >();

  constructor(bounds: readonly number[]) {
    this.#bounds = [...bounds].sort((a, b) => a - b);
  }

  observe(labels: Labels, value: number): void {
    const key = JSON.stringify(labels);
    let series = this.#series.get(key);
    if (!series) {
      series = { labels, buckets: this.#bounds.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const index = this.#bounds.findIndex((bound) => value <= bound);
    if (index !== -1) series.buckets[index] = (series.buckets[index] ?? 0) + 1;
    series.sum += value;
    series.count += 1;
  }

  /** The samples of the family: cumulative `_bucket`s up to `+Inf`, `_sum`, `_count`. */
  samples(): (Sample & { suffix: string })[] {
    const samples: (Sample & { suffix: string })[] = [];
    for (const { labels, buckets, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((bound, index) => {
        cumulative += buckets[index] ?? 0;
        samples.push({
          suffix: '_bucket',
          labels: { ...labels, le: String(bound) },
          value: cumulative,
        });
      });
      samples.push({ suffix: '_bucket', labels: { ...labels, le: '+Inf' }, value: count });
      samples.push({ suffix: '_sum', labels, value: sum });
      samples.push({ suffix: '_count', labels, value: count });
    }
    return samples;
  }
}

/** A counter per label set. */
export class Counter {
  readonly #series = new Map<string, Sample>();

  add(labels: Labels, amount = 1): void {
    const key = JSON.stringify(labels);
    const series = this.#series.get(key);
    if (series) series.value += amount;
    else this.#series.set(key, { labels, value: amount });
  }

  samples(): Sample[] {
    return [...this.#series.values()];
  }
}
