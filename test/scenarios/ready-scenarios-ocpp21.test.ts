// Every ready scenario of scenarios/ocpp21 passes against the built-in and a strict central system.
import { readyScenariosSuite } from './ready-scenarios.ts';

readyScenariosSuite('ocpp21');
