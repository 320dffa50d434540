import ipaddr from 'ipaddr.js';

/** Decides which resolved addresses the dispatcher may connect to. */
export interface AddressPolicy {
  /** Why `address` is refused, or null when it may be used. */
  refusal(address: string): string | null;
}

/**
 * Only globally routable unicast addresses, unless an allowed network (CIDR) contains
 * the address. Refused: loopback, private, link-local (cloud metadata), CGNAT,
 * unique-local, multicast, reserved, documentation, 6to4/Teredo/NAT64 and the like
 * (every ipaddr.js range other than `unicast`). IPv4-mapped IPv6 is judged as IPv4.
 *
 * @throws Error on a malformed CIDR (a configuration error).
 */
export function createAddressPolicy(allowedNetworks: readonly string[]): AddressPolicy {
  const networks = allowedNetworks.map((cidr) => {
    if (!ipaddr.isValidCIDR(cidr)) throw new Error(`not a CIDR: ${cidr}`);
    return ipaddr.parseCIDR(cidr);
  });
  return {
    refusal(address) {
      if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
      const ip = ipaddr.process(address);
      for (const [network, bits] of networks) {
        if (ip.kind() === network.kind() && ip.match(network, bits)) return null;
      }
      const range = ip.range();
      return range === 'unicast' ? null : `${address} is a ${range} address, refused (WEBHOOK_ALLOWED_NETWORKS can allow it)`;
    },
  };
}
