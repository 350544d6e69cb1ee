// Generated traffic as the load test's sessions (--traffic SEED): one TrafficRun of engine/traffic
// over the whole fleet (engine/traffic/local-traffic.ts sends its commands to the actors), so the
// chargers carry random sessions (EV models, dwell times, tokens, faults, connection drops) with
// the run's one timer and no timer per charger. Its arrival rate is set so
// that `--charging-share` of the chargers charge on average, and it starts warm (in the steady
// state), so that share holds from the first minute of a run that lasts a few.
import { trafficConfig, type TrafficConfig } from '../../engine/traffic/traffic-config.ts';
export { startLocalTraffic, type LocalTraffic } from '../../engine/traffic/local-traffic.ts';

/** Mean dwell time of the load test's sessions (minutes): the traffic's default. */
const DWELL_MINUTES = 90;

/**
 * Traffic whose sessions keep `share` of the chargers charging on average: each connector is busy
 * for a dwell time D and free for an exponential gap of mean 1/rate, so busy for D/(D + 1/rate)
 * of the time; `share` of the chargers is share/connectors of the connectors.
 */
export function loadtestTrafficConfig(seed: number, share: number, connectors: number): TrafficConfig {
  const busy = Math.min(0.95, share / connectors);
  const dwellHours = DWELL_MINUTES / 60;
  const rate = busy <= 0 ? 0 : busy / ((1 - busy) * dwellHours);
  return trafficConfig.parse({
    seed,
    speed: 1,
    arrivals_per_hour: Array(24).fill(Math.round(rate * 10_000) / 10_000),
    dwell_minutes: { mean: DWELL_MINUTES },
    warm_start: true,
  });
}
