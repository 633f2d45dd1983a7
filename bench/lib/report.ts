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

function wantedText(prefix: string, maxP99Ms: number | undefined): string {
  const p99 = maxP99Ms === undefined ? '' : `p99 < ${maxP99Ms} ms`;
  return `${prefix}${p99}`.replace(/, $/, '');
}

/** The multiple of `base`'s throughput Quitanda must reach, if any. */
function wantedRatio(
  workload: Workload,
  base: Summary,
  firstBaseline: Summary | undefined,
): number | undefined {
  const named = workload.target?.minRatioVs?.[base.target];
  if (named !== undefined) return named;
  return base === firstBaseline ? workload.target?.minRatio : undefined;
}

/**
 * A Markdown table: each workload, each target, and the contract verdict.
 * Quitanda's row carries the verdict; each baseline's row carries Quitanda's
 * throughput as a multiple of that baseline's, and the multiple wanted.
 */
export function markdown(
  summaries: readonly Summary[],
  workloads: readonly Workload[],
  setup: string,
): string {
  const lines = [
    setup,
    '',
    '| workload | server | req/s (median) | runs | p50 ms | p99 ms | quitanda ÷ this | target | verdict |',
    '|---|---|---:|---|---:|---:|---:|---|---|',
  ];
  for (const workload of workloads) {
    const rows = summaries.filter((s) => s.workload === workload.name);
    const label = workload.connections
      ? `${workload.name} (${workload.connections} connections)`
      : workload.name;
    const ours = rows.find((r) => r.target === 'quitanda');
    const reference = workload.reference
      ? summaries.find(
          (s) => s.workload === workload.reference && s.target === 'quitanda',
        )
      : undefined;
    const bases = reference ? [reference] : rows.filter((r) => r !== ours);
    const firstBaseline = reference ?? bases[0];
    const comparisons = bases.map((base) => ({
      base,
      ratio: ours ? ours.medianRps / base.medianRps : undefined,
      wanted: wantedRatio(workload, base, firstBaseline),
    }));
    const cell = (ratio: number | undefined) =>
      ratio === undefined ? '' : `${ratio.toFixed(2)}x`;
    if (ours) {
      const target = workload.target;
      const meets =
        !!target &&
        comparisons.every(
          (c) =>
            c.wanted === undefined ||
            (c.ratio !== undefined && c.ratio >= c.wanted),
        ) &&
        (target.maxP99Ms === undefined || ours.p99Ms < target.maxP99Ms) &&
        ours.failures === 0;
      // A reference workload compares with Quitanda's own figure elsewhere.
      const referenceWanted =
        reference && target?.minRatio !== undefined
          ? `>= ${target.minRatio}x of "${reference.workload}", `
          : '';
      lines.push(
        `| ${label} | quitanda | ${ours.medianRps} | ${ours.runs.join(' / ')} | ${ours.p50Ms} | ${ours.p99Ms} | ${reference ? cell(comparisons[0]?.ratio) : ''} | ${target ? wantedText(referenceWanted, target.maxP99Ms) : ''} | ${target ? (meets ? 'meets' : 'MISSES') : ''}${ours.failures ? ` (${ours.failures} failed requests)` : ''} |`,
      );
    }
    for (const { base, ratio, wanted } of reference ? [] : comparisons) {
      lines.push(
        `| ${label} | ${base.target} | ${base.medianRps} | ${base.runs.join(' / ')} | ${base.p50Ms} | ${base.p99Ms} | ${cell(ratio)} | ${wanted === undefined ? '' : `>= ${wanted}x`} | ${base.failures ? `(${base.failures} failed requests)` : ''} |`,
      );
    }
  }
  return lines.join('\n');
}
