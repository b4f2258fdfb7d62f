/**
 * Whether a connection's peer address is this machine's loopback: 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6
 * (a server bound to `::` sees IPv4 peers as `::ffff:a.b.c.d`). What browser mode and the sandbox keep to this
 * machine is decided by this alone: a peer with any other address reached us over a network.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
