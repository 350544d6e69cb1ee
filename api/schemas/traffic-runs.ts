// Request shapes of generated traffic (POST/PATCH/DELETE /traffic-runs); the traffic's own fields
// are the engine's schema (engine/traffic/traffic-config.ts).
import { z } from 'zod';
import { trafficChange, trafficConfig } from '../../engine/traffic/traffic-config.ts';

export const startTrafficBody = trafficConfig.extend({ location_id: z.string().min(1).max(36) });
export const changeTrafficBody = trafficChange;
export const trafficPath = z.object({ traffic_id: z.string().min(1).max(100) });
