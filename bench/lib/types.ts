import type { Options as AutocannonOptions } from 'autocannon';

/** How to start a server process. */
export interface ServerCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  /**
   * Gateway processes it runs (`WORKERS`): it is pinned to as many cores
   * (from core 1, the load generator keeping core 0) and measured once
   * every one of them has said it is listening.
   */
  workers?: number;
}

/** A server under test: how to start it, given the benchmark database. */
export interface Target {
  /** `quitanda` or a baseline's name. */
  readonly name: string;
  /** Command line of the server process (pinned to one core by the runner). */
  command(port: number): ServerCommand;
  /**
   * For a server that speaks another API (Parse Server): fills it through
   * its own API once it is up, and builds its own requests. Otherwise the
   * workload's `prepare` data and `requests` are used.
   */
  prepare?(url: string): Promise<unknown>;
  requests?(url: string, prepared: unknown): Partial<AutocannonOptions>;
}

/** What one workload measures and how to prepare for it. */
export interface Workload {
  readonly name: string;
  readonly description: string;
  /**
   * Contract target: throughput as a multiple of the first baseline's
   * (`minRatio`) and of other named targets' (`minRatioVs`), and a p99 bound.
   */
  readonly target?: {
    readonly minRatio?: number;
    readonly minRatioVs?: Readonly<Record<string, number>>;
    readonly maxP99Ms?: number;
  };
  readonly targets: readonly Target[];
  /**
   * Also compare Quitanda's throughput with its own figure in this other
   * workload (the same load on a small table): at least `minRatio` of it.
   */
  readonly reference?: { readonly workload: string; readonly minRatio: number };
  /** Concurrent connections, when the workload is a latency test rather than a throughput one. */
  readonly connections?: number;
  /** Fills the database once, before any server starts; returns data for requests. */
  prepare(databaseUrl: string): Promise<unknown>;
  /**
   * One fixed read whose answer every server speaking the workload's API
   * must give exactly as Quitanda does (JSON compared with keys sorted, the
   * server's port masked): checked once, before the first measured run.
   */
  probe?(prepared: unknown): {
    path: string;
    headers: Record<string, string>;
  };
  /** The autocannon request set for one measurement against `url`. */
  requests(url: string, prepared: unknown): Partial<AutocannonOptions>;
}

export interface Measurement {
  readonly workload: string;
  readonly target: string;
  readonly run: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly non2xx: number;
  /** The server process's peak resident set during the run (warm-up included). */
  readonly peakRssMb?: number;
  /** The server's CPU time per answered request during the measured run, in microseconds. */
  readonly cpuUsPerRequest?: number;
  /** Every local PostgreSQL process's CPU time per answered request, in microseconds. */
  readonly dbUsPerRequest?: number;
}
