import type { Measurement, Workload } from './types';

/** Contract (README, Performance): the gateway's RSS under every workload. */
const MAX_GATEWAY_RSS_MB = 300;

export interface Summary {
  readonly workload: string;
  readonly target: string;
  readonly runs: readonly number[];
  readonly medianRps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The highest peak RSS of the server process over the runs, if read. */
  readonly peakRssMb: number | undefined;
  /** The median of the runs' server CPU time per request, in microseconds, if read. */
  readonly cpuUsPerRequest: number | undefined;
  /** The same for the local PostgreSQL server's processes, if read. */
  readonly dbUsPerRequest: number | undefined;
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
    const rss = runs.flatMap((r) =>
      r.peakRssMb === undefined ? [] : [r.peakRssMb],
    );
    const cpu = runs.flatMap((r) =>
      r.cpuUsPerRequest === undefined ? [] : [r.cpuUsPerRequest],
    );
    const db = runs.flatMap((r) =>
      r.dbUsPerRequest === undefined ? [] : [r.dbUsPerRequest],
    );
    return {
      workload: first.workload,
      target: first.target,
      runs: runs.map((r) => Math.round(r.requestsPerSecond)),
      medianRps: Math.round(median(runs.map((r) => r.requestsPerSecond))),
      p50Ms: median(runs.map((r) => r.p50Ms)),
      p99Ms: median(runs.map((r) => r.p99Ms)),
      peakRssMb: rss.length ? Math.max(...rss) : undefined,
      cpuUsPerRequest: cpu.length ? Math.round(median(cpu)) : undefined,
      dbUsPerRequest: db.length ? Math.round(median(db)) : undefined,
      failures: runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
    };
  });
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

interface Comparison {
  readonly base: Summary;
  /** How the row names the compared server or figure. */
  readonly label: string;
  readonly ratio: number | undefined;
  readonly wanted: number | undefined;
}

function comparisons(
  workload: Workload,
  rows: readonly Summary[],
  summaries: readonly Summary[],
  ours: Summary | undefined,
): Comparison[] {
  const bases = rows.filter((r) => r !== ours);
  const ratio = (base: Summary) =>
    ours && base.medianRps > 0 ? ours.medianRps / base.medianRps : undefined;
  const list: Comparison[] = bases.map((base) => ({
    base,
    label: base.target,
    ratio: ratio(base),
    wanted: wantedRatio(workload, base, bases[0]),
  }));
  const reference = workload.reference;
  const small =
    reference &&
    summaries.find(
      (s) => s.workload === reference.workload && s.target === 'quitanda',
    );
  if (reference && small)
    list.push({
      base: small,
      label: `quitanda in "${reference.workload}"`,
      ratio: ratio(small),
      wanted: reference.minRatio,
    });
  return list;
}

/** What Quitanda must do in this workload, in words. */
function wantedText(workload: Workload): string {
  const target = workload.target;
  return [
    target?.maxP99Ms === undefined ? '' : `p99 < ${target.maxP99Ms} ms`,
    `RSS <= ${MAX_GATEWAY_RSS_MB} MB`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The targets Quitanda misses in this workload (none: it meets them all). */
function misses(
  workload: Workload,
  ours: Summary,
  compared: readonly Comparison[],
): string[] {
  const missed = compared
    .filter(
      (c) =>
        c.wanted !== undefined && (c.ratio === undefined || c.ratio < c.wanted),
    )
    .map((c) => `vs ${c.label}`);
  const p99 = workload.target?.maxP99Ms;
  if (p99 !== undefined && !(ours.p99Ms < p99)) missed.push('p99');
  if (ours.peakRssMb === undefined || ours.peakRssMb > MAX_GATEWAY_RSS_MB)
    missed.push('RSS');
  if (ours.failures) missed.push(`${ours.failures} failed requests`);
  return missed;
}

/**
 * A Markdown table: each workload, each target, and the contract verdict.
 * Quitanda's row carries the verdict and the targets it must meet itself;
 * each compared row (a baseline server, or Quitanda's own figure on the
 * small table) carries Quitanda's throughput as a multiple of that row's,
 * and the multiple wanted.
 */
export function markdown(
  summaries: readonly Summary[],
  workloads: readonly Workload[],
  setup: string,
): string {
  const lines = [
    setup,
    '',
    '| workload | server | req/s (median) | runs | p50 ms | p99 ms | CPU us/req | PostgreSQL CPU us/req | peak RSS MB | quitanda ÷ this | target | verdict |',
    '|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  const cell = (ratio: number | undefined) =>
    ratio === undefined ? '' : `${ratio.toFixed(2)}x`;
  const rss = (s: Summary) => (s.peakRssMb === undefined ? '' : s.peakRssMb);
  const cpu = (s: Summary) =>
    `${s.cpuUsPerRequest ?? ''} | ${s.dbUsPerRequest ?? ''}`;
  const missing: string[] = [];
  let met = 0;
  for (const workload of workloads) {
    const rows = summaries.filter((s) => s.workload === workload.name);
    const label = workload.connections
      ? `${workload.name} (${workload.connections} connections)`
      : workload.name;
    const ours = rows.find((r) => r.target === 'quitanda');
    const compared = comparisons(workload, rows, summaries, ours);
    if (ours) {
      const missed = misses(workload, ours, compared);
      if (missed.length)
        missing.push(`${workload.name} (${missed.join(', ')})`);
      else met++;
      lines.push(
        `| ${label} | quitanda | ${ours.medianRps} | ${ours.runs.join(' / ')} | ${ours.p50Ms} | ${ours.p99Ms} | ${cpu(ours)} | ${rss(ours)} | | ${wantedText(workload)} | ${missed.length ? `MISSES: ${missed.join(', ')}` : 'meets'} |`,
      );
    }
    const reference = workload.reference;
    if (
      ours &&
      reference &&
      !compared.some((c) => c.base.workload === reference.workload)
    )
      lines.push(
        `| ${label} | quitanda in "${reference.workload}" | | | | | | | | | >= ${reference.minRatio}x | not measured in this run (select it too) |`,
      );
    for (const { base, label: name, ratio, wanted } of compared) {
      lines.push(
        `| ${label} | ${name} | ${base.medianRps} | ${base.runs.join(' / ')} | ${base.p50Ms} | ${base.p99Ms} | ${cpu(base)} | ${rss(base)} | ${cell(ratio)} | ${wanted === undefined ? '' : `>= ${wanted}x`} | ${base.failures ? `(${base.failures} failed requests)` : ''} |`,
      );
    }
  }
  lines.push(
    '',
    `Quitanda meets every target in ${met} of ${met + missing.length} workloads.` +
      (missing.length ? ` Missed: ${missing.join('; ')}.` : ''),
  );
  return lines.join('\n');
}
