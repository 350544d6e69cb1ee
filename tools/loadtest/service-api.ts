// The service's HTTP API as the load tools call it: bearer token, JSON both ways, an error naming
// the call and the answer's status and start; and the catalog model they deploy.

/** One API call; resolves to the parsed JSON body (null when empty), throws on a non-2xx answer. */
export type ApiCall = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

export function serviceApi(base: string, token: string | undefined, doFetch: typeof fetch = fetch): ApiCall {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await doFetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}

/** A catalog model to deploy: the first model of the first brand, and its connectors (1 if unsaid). */
export async function firstCatalogModel(
  call: ApiCall,
): Promise<{ brand: string; model: string; connectors: number }> {
  type Slugs = { data: { slug: string; connector_count?: number | null }[] };
  const brand = (await call<Slugs>('GET', '/evcharger/catalog?limit=1')).data[0]?.slug;
  if (!brand) throw new Error('the service catalog has no brand to deploy');
  const model = (await call<Slugs>('GET', `/evcharger/catalog/${brand}/models?limit=1`)).data[0];
  if (!model) throw new Error(`catalog brand ${brand} has no model`);
  return { brand, model: model.slug, connectors: model.connector_count ?? 1 };
}
