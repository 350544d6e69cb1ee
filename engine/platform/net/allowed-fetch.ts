// Firmware images and log uploads go where the central system under test says; in a hosted sandbox
// that could point the service at internal addresses. With TRANSFER_ALLOWED_HOSTS set, transfers
// use this fetch: a host not on the list is refused, redirects included (each hop is checked, the
// redirect followed here rather than by fetch). Unset, any host goes (local use).

/**
 * Lower-case host patterns: a name (`files.example.com`), a name's subdomains (`*.example.com`, not
 * the name itself), an IPv4 address or a bracketed IPv6 one (`[fd00::1]`). Any port.
 */
export type HostAllowList = readonly string[];

/** The host names and addresses one pattern of TRANSFER_ALLOWED_HOSTS may be. */
export const HOST_PATTERN = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$|^\[[0-9a-f:.]+\]$/;

export class HostNotAllowedError extends Error {}

/** Whether a URL's hostname (as `new URL` normalizes it) is on the list. */
export function hostAllowed(allowed: HostAllowList, hostname: string): boolean {
  const host = hostname.toLowerCase();
  return allowed.some((p) => (p.startsWith('*.') ? host.endsWith(p.slice(1)) : host === p));
}

const MAX_REDIRECTS = 10;

/** `fetch` that reaches only the allowed hosts; a refused host rejects with HostNotAllowedError. */
export function allowListFetch(allowed: HostAllowList, base: typeof fetch = fetch): typeof fetch {
  return async (input, init = {}) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let hop = { ...init, redirect: 'manual' as const };
    for (let redirects = 0; ; redirects++) {
      if (!hostAllowed(allowed, url.hostname))
        throw new HostNotAllowedError(`the host ${url.hostname} is not in TRANSFER_ALLOWED_HOSTS`);
      const res = await base(url, hop);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status > 399 || location === null || init.redirect === 'manual') return res;
      await res.body?.cancel();
      if (init.redirect === 'error') throw new TypeError(`redirected to ${location}`);
      if (redirects === MAX_REDIRECTS) throw new TypeError('too many redirects');
      url = new URL(location, url);
      // As fetch does: 303, and 301/302 after a POST, go on as a GET without the body.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && hop.method === 'POST'))
        hop = { ...hop, method: 'GET', body: undefined };
    }
  };
}
