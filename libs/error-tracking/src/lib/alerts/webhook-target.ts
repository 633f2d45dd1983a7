import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Server-side request forgery guard for webhooks: addresses a hook may not
 * reach unless the operator allows local targets (ALERTS_ALLOW_LOCAL_TARGETS).
 * Loopback, link-local (cloud metadata lives at 169.254.169.254), private,
 * shared (CGNAT), unspecified, benchmark, multicast and reserved ranges.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv4');
// IPv4-mapped addresses (`::ffff:a.b.c.d`) are checked against the IPv4
// ranges by BlockList itself. Ranges that carry an IPv4 address inside
// (compatible, translated, 6to4, Teredo, NAT64) are refused whole: they
// may lead to any IPv4 address, a private one included.
for (const [network, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fec0::', 10],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv6');

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`), as IPv4. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? (match[1] as string) : address;
}

/** True when `address` (an IP literal) is in a range hooks may not reach. */
export function isBlockedAddress(address: string): boolean {
  const plain = unmapped(address.replace(/^\[|\]$/g, ''));
  const family = isIP(plain);
  if (family === 0) return true;
  return BLOCKED.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

export class BlockedTargetError extends Error {
  readonly code = 'EBLOCKEDTARGET';
}

export interface TargetPolicy {
  /** Loopback, link-local and private addresses allowed (tests, self-hosted). */
  readonly allowLocal: boolean;
  /** The gateway's own public host (`host[:port]`), never a target. */
  readonly ownHost?: string;
}

/**
 * GitLab's texts for the targets only `allowLocal` (ALERTS_ALLOW_LOCAL_TARGETS)
 * permits: the web form names that setting beside them.
 */
export const LOCAL_TARGET_PROBLEMS = {
  ownHost: 'is blocked: Requests to this instance are not allowed',
  localhost: 'is blocked: Requests to localhost are not allowed',
  localNetwork: 'is blocked: Requests to the local network are not allowed',
} as const;

/**
 * Why `url` may not be a hook's target, or undefined when it may (as far
 * as can be told without DNS: literal addresses, `localhost`, the gateway's
 * own host). Delivery checks every resolved address again.
 */
export function targetProblem(
  url: string,
  policy: TargetPolicy,
): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is invalid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return 'is blocked: Only allowed schemes are http, https';
  if (parsed.username || parsed.password)
    return 'is blocked: credentials in the URL are not allowed';
  if (policy.allowLocal) return undefined;
  // `localhost.` is `localhost`: a fully qualified name ends with a dot.
  const host = parsed.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
  if (policy.ownHost && parsed.host.toLowerCase() === policy.ownHost)
    return LOCAL_TARGET_PROBLEMS.ownHost;
  if (host === 'localhost' || host.endsWith('.localhost'))
    return LOCAL_TARGET_PROBLEMS.localhost;
  if (isIP(host) !== 0 && isBlockedAddress(host))
    return LOCAL_TARGET_PROBLEMS.localNetwork;
  return undefined;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `http.request` that resolves the name and refuses the
 * connection when any resolved address is blocked, so the address checked
 * is the address connected to (no second lookup to rebind).
 */
export function guardedLookup(policy: TargetPolicy) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: LookupCallback,
  ): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      if (list.length === 0)
        return callback(new Error(`${hostname} has no address`), []);
      if (!policy.allowLocal) {
        const blocked = list.find((a) => isBlockedAddress(a.address));
        if (blocked)
          return callback(
            new BlockedTargetError(
              `${hostname} resolves to a blocked address (${blocked.address})`,
            ),
            [],
          );
      }
      if (options.all) return callback(null, list);
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
