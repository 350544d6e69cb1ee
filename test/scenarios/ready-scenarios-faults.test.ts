// Every ready fault scenario of scenarios/faults (link conditions set by `link` steps) passes
// against the built-in and a strict central system.
import { readyScenariosSuite } from './ready-scenarios.ts';

readyScenariosSuite('faults');
