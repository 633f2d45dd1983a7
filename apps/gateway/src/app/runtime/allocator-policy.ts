/**
 * Blocks from this size on are mapped for their use and unmapped when
 * freed. glibc's own threshold moves up to the size of each large block a
 * thread frees (up to 32 MiB): after the first password hash (argon2id,
 * 19 MiB) every later one came from a thread's arena, which kept it. With
 * the threshold fixed, a worker's peak was 5-14 MB lower in every
 * marketplace workload at the same rates, login's 5% slower (fresh pages
 * per hash; docs/performance.md, "Memory").
 */
export const MMAP_THRESHOLD_BYTES = 4 * 1024 * 1024;

/** glibc's setting, read once as a process starts. */
const MMAP_THRESHOLD_VARIABLE = 'MALLOC_MMAP_THRESHOLD_';

/**
 * What the primary adds to the environment its workers start with, unless
 * the operator set the threshold (then nothing). Other C libraries ignore
 * the variable.
 */
export function workerAllocatorEnv(
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  if (env[MMAP_THRESHOLD_VARIABLE] !== undefined) return {};
  return { [MMAP_THRESHOLD_VARIABLE]: String(MMAP_THRESHOLD_BYTES) };
}
