// The CLI's --api mode: the scenario runs on a running evsim service (POST /scenario-runs), its
// steps followed over the run's event stream until the result arrives.
import type { RunEvent, RunResult } from '../../engine/scenarios/scenario-result.ts';
import { placeText } from '../../engine/scenarios/scenario-schema.ts';
import type { ScenarioCliOptions } from './options.ts';

/** fetch, with a connection that fails said in one line naming the service. */
async function reach(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`cannot reach ${url} (${cause?.code ?? cause?.message ?? (err as Error).message})`, {
      cause: err,
    });
  }
}

export async function runViaApi(
  o: ScenarioCliOptions,
  text: string,
  onEvent: (e: RunEvent) => void,
  sayWhere = true,
  quiet = false,
): Promise<RunResult | string> {
  const { url, token } = o.api!;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const res = await reach(`${url}/scenario-runs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      scenario: text,
      ...(o.wsUrl && { ws_url: o.wsUrl }),
      ...(o.csmsHook && { csms_hook: o.csmsHook }),
      // The secrets go to the service, which seals them: sent as given, never printed.
      ...(o.security && { security: o.security }),
      variables: o.variables,
      ...(o.seed !== undefined && { seed: o.seed }),
    }),
  });
  if (res.status === 401 || res.status === 403)
    throw new Error(`--token: the service at ${url} refused it (HTTP ${res.status})`);
  const body = (await res.json().catch(() => ({}))) as {
    run_id?: string;
    scenario?: string;
    detail?: unknown;
  };
  if (res.status === 422 && Array.isArray(body.detail))
    return (
      (body.detail as Array<{ loc: unknown[]; msg: string }>)
        // loc is ['body', 'scenario', ...0-based path]: shown 1-based, as the report numbers steps.
        .map((d) => `${placeText(d.loc.slice(2) as Array<string | number>)}: ${d.msg}`)
        .join('\n')
    );
  if (res.status !== 201 || !body.run_id)
    throw new Error(`POST /scenario-runs: HTTP ${res.status} ${JSON.stringify(body)}`);
  // The scenario's name first, so a CI log says what runs before the steps do.
  if (!quiet) process.stdout.write(`${body.scenario ?? ''}\n`);
  if (sayWhere) process.stdout.write(`run ${body.run_id} on ${url}\n`);
  const stream = await reach(`${url}/scenario-runs/${body.run_id}/events`, { headers });
  if (!stream.ok || !stream.body)
    throw new Error(`GET /scenario-runs/${body.run_id}/events: HTTP ${stream.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of stream.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      if (!event || !data) continue;
      if (event === 'step') onEvent({ type: 'step', step: JSON.parse(data) });
      else if (event === 'charger') onEvent({ type: 'charger', charger: JSON.parse(data) });
      else if (event === 'prompt') onEvent(JSON.parse(data) as RunEvent);
      else if (event === 'end') return JSON.parse(data) as RunResult;
    }
  }
  // The stream ended without a result (the service restarted): read what it has.
  const last = await reach(`${url}/scenario-runs/${body.run_id}`, { headers });
  if (!last.ok) throw new Error(`GET /scenario-runs/${body.run_id}: HTTP ${last.status}`);
  return (await last.json()) as RunResult;
}
