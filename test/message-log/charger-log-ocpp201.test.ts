import { chargerLogFlows } from './charger-log-flows.ts';

chargerLogFlows('ocpp2.0.1');
