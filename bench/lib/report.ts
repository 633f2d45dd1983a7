import type { Measurement, Workload } from './types';

export interface Summary {
  readonly workload: string;
  readonly target: string;
  readonly runs: readonly number[];
  readonly medianRps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly failures: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function summarise(measurements: readonly Measurement[]): Summary[] {
  const groups = new Map<string, Measurement[]>();
  for (const m of measurements) {
    const key = `${m.workload}\u0000${m.target}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()].map((runs) => {
    const first = runs[0] as Measurement;
    return {
      workload: first.workload,
      target: first.target,
      runs: runs.map((r) => Math.round(r.requestsPerSecond)),
      medianRps: Math.round(median(runs.map((r) => r.requestsPerSecond))),
      p50Ms: median(runs.map((r) => r.p50Ms)),
      p99Ms: median(runs.map((r) => r.p99Ms)),
      failures: runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
    };
  });
}

/** A Markdown table: each workload, each target, and the contract verdict. */
export function markdown(
  summaries: readonly Summary[],
  workloads: readonly Workload[],
  setup: string,
): string {
  const lines = [
    setup,
    '',
    '| workload | server | req/s (median) | runs | p50 ms | p99 ms | vs baseline | target | verdict |',
    '|---|---|---:|---|---:|---:|---:|---|---|',
  ];
  for (const workload of workloads) {
    const rows = summaries.filter((s) => s.workload === workload.name);
    const label = workload.connections
      ? `${workload.name} (${workload.connections} connections)`
      : workload.name;
    const ours = rows.find((r) => r.target === 'quitanda');
    const base = workload.reference
      ? summaries.find(
          (s) => s.workload === workload.reference && s.target === 'quitanda',
        )
      : rows.find((r) => r.target !== 'quitanda');
    for (const row of rows) {
      const isOurs = row === ours;
      const ratio = isOurs && base ? row.medianRps / base.medianRps : undefined;
      const target = workload.target;
      const wanted = target
        ? [
            target.minRatio !== undefined ? `>= ${target.minRatio}x` : '',
            `p99 < ${target.maxP99Ms} ms`,
          ]
            .filter(Boolean)
            .join(', ')
        : '';
      const verdict =
        isOurs && target
          ? (ratio === undefined ||
              target.minRatio === undefined ||
              ratio >= target.minRatio) &&
            row.p99Ms < target.maxP99Ms &&
            row.failures === 0
            ? 'meets'
            : 'MISSES'
          : '';
      lines.push(
        `| ${label} | ${row.target} | ${row.medianRps} | ${row.runs.join(' / ')} | ${row.p50Ms} | ${row.p99Ms} | ${ratio === undefined ? '' : `${ratio.toFixed(2)}x`} | ${isOurs ? wanted : ''} | ${verdict}${row.failures ? ` (${row.failures} failed requests)` : ''} |`,
      );
    }
  }
  return lines.join('\n');
}
