/**
 * Whether the cashier's screen may send its token from this page: in browser mode Loket speaks plain HTTP, and
 * its API answers only connections from the till itself (a loopback address; src-main/web/web-host.ts). A page
 * opened by a LAN address would send the token and the manager's PIN across the network in clear before being
 * refused, so it sends nothing. The desktop app (no HTTP) and a page over https are not concerned.
 */
export function tokenStaysOnThisMachine(location: Pick<Location, 'protocol' | 'hostname'>): boolean {
  if (location.protocol !== 'http:') return true;
  const host = location.hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
