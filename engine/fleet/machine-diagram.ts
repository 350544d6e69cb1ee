// The charger's state machine as data the console draws: read from the running machine's own
// definition (actors/charger/charger-machine.ts), so the diagram cannot drift from the code.
import type { AnyStateNode } from 'xstate';
import { chargerMachine } from '../../actors/charger/charger-machine.ts';

export interface DiagramTransition {
  /** The event, `after <delay>` for a timer, `always` for an eventless one. */
  event: string;
  /** Target state ids (`charger.deployed.session.online`), empty for a self-handled event. */
  targets: string[];
}

export interface DiagramNode {
  id: string;
  key: string;
  type: string;
  initial: string | null;
  transitions: DiagramTransition[];
  states: DiagramNode[];
}

function eventName(type: string): string {
  // xstate.after.<delay>.<state id>
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  return after ? `after ${after[1]}` : type;
}

function node(n: AnyStateNode): DiagramNode {
  const transitions: DiagramTransition[] = [];
  for (const [type, list] of n.transitions)
    for (const t of list) {
      const targets = (t.target ?? []).map((s: AnyStateNode) => s.id);
      if (targets.length > 0) transitions.push({ event: eventName(type), targets });
    }
  for (const t of n.always ?? []) {
    const targets = (t.target ?? []).map((s: AnyStateNode) => s.id);
    if (targets.length > 0) transitions.push({ event: 'always', targets });
  }
  const initial = n.initial?.target?.[0]?.key ?? null;
  return {
    id: n.id,
    key: n.key,
    type: n.type,
    initial: n.type === 'compound' ? initial : null,
    transitions,
    states: Object.values(n.states as Record<string, AnyStateNode>).map(node),
  };
}

let cached: DiagramNode | undefined;

/** The whole tree, computed once (the machine does not change while the process runs). */
export function chargerDiagram(): DiagramNode {
  cached ??= node(chargerMachine.root);
  return cached;
}

/** The ids of the active leaf and parent states of a stored snapshot's value. */
export function activeStateIds(value: unknown, prefix = 'charger'): string[] {
  if (typeof value === 'string') return [prefix, `${prefix}.${value}`];
  if (value === null || typeof value !== 'object') return [prefix];
  const out = [prefix];
  for (const [key, child] of Object.entries(value)) out.push(...activeStateIds(child, `${prefix}.${key}`));
  return [...new Set(out)];
}
