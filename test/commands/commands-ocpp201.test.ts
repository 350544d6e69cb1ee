import { commandFlows } from './command-flows.ts';

commandFlows('ocpp2.0.1');
