import { chargerLogFlows } from './charger-log-flows.ts';

chargerLogFlows('ocpp1.6');
