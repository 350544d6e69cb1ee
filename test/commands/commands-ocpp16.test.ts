import { commandFlows } from './command-flows.ts';

commandFlows('ocpp1.6');
