// Path of GET /evcharger/deployments/{deployment_id} (and of the deployment's message log).
import { z } from 'zod';

export const deploymentPath = z.object({ deployment_id: z.string().min(1).max(64) });
