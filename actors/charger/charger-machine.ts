// The virtual charger: one XState machine for every OCPP version it speaks. The state tree below
// is the deployment lifecycle; connectors, transactions, settings and timers are
// data in context, changed by the OCPP functional blocks (blocks/) and said on the wire by the
// version's adapter (ocpp16/, ocpp2/). Named parts: charger-setup.ts (guards, delays, the `link`
// actor), charger-actions.ts (actions); what each event means: dispatch.ts and the adapters.
//
//   not_deployed ──DEPLOY──▶ deployed ◀──START/RESTART── stopped
//   deployed: queued → scheduling → pulling → starting → session ⇄ offline
//             (queued → session at once, the three stages said, when provisioning is instant)
//             session (the link): connecting → registering (booting ⇄ waiting) → online
//             (from waiting too: a boot the CSMS triggered and accepted)
//             online ──internal.reboot (a Reset)──▶ starting
//   timers.due: the earliest deadline of ctx.timers, one delayed event per charger (no state of
//             its own: a region would cost every event two more state nodes to walk)
//
// Commands (PLUG_IN, PROXY_CALL, ...) match the wildcard: run while deployed, NOT_RUNNING otherwise
// (their names are the command bus's, so they carry no common prefix for a partial wildcard).
import { LINK_ID } from './core/events.ts';
import { intSetting } from './core/settings.ts';
import { chargerSetup } from './charger-setup.ts';
import { chargerActions } from './charger-actions.ts';
import { initialContext } from './lifecycle.ts';

const stuckAfterDeadline = { stageDeadline: { actions: 'markStuck' } } as const;

/**
 * RESUME in a deployed state (after a restore): re-enter it, so its entries, `after` timers and
 * link start again, and arm ctx.timers' one delayed event (a restored actor has lost it).
 */
const resumeIn = <const S extends string, const A extends readonly string[] = []>(state: S, ...also: A) =>
  ({ target: state, reenter: true, actions: ['resume', ...also, 'armTimers'] }) as const;

export const chargerMachine = chargerSetup.extend({ actions: chargerActions }).createMachine({
  id: 'charger',
  context: ({ input }) => initialContext(input),
  initial: 'not_deployed',
  on: {
    '*': { guard: 'isCommand', actions: 'notRunning' },
    RESUME: { actions: 'resume' },
  },
  states: {
    not_deployed: {
      on: { DEPLOY: 'deployed' },
    },
    deployed: {
      initial: 'queued',
      // One delayed `timers.due` on the earliest of ctx.timers, each due deadline to its block
      // (dispatch.ts, TIMERS). An action that changes ctx.timers re-arms it (charger-actions.ts,
      // commit); so does RESUME (a restored actor has lost its delayed events).
      entry: 'armTimers',
      exit: 'disarmTimers',
      on: {
        'timers.due': { actions: 'fireTimers' },
        // A file transfer (firmware, logs; core/transfers.ts) ended.
        'transfer.result': { actions: 'transferResult' },
        STOP: 'stopped',
        RESTART: { target: 'deployed', reenter: true, actions: 'nextAttempt' },
        '*': { guard: 'isCommand', actions: 'command' },
        // Security: the engine's answers (a CSR, a signed certificate checked, a CA installed)
        'security.csr': { actions: 'securityResult' },
        'security.certificate': { actions: 'securityResult' },
        'security.installed': { actions: 'securityResult' },
      },
      // Simulated provisioning steps (provisioningStepMs each, 0 by default), then the session.
      states: {
        queued: {
          entry: 'enterQueued',
          // Instant provisioning (the default) says the three steps' stages in one go: a fleet
          // boot then costs one transition here instead of four, each arming a step timer.
          always: { guard: 'provisioningInstant', target: 'session', actions: 'provisionInstantly' },
          after: { provisioningStep: 'scheduling' },
          on: { RESUME: resumeIn('queued') },
        },
        scheduling: {
          entry: 'enterScheduling',
          always: { guard: 'provisioningInstant', target: 'pulling' },
          after: { provisioningStep: 'pulling' },
          on: { RESUME: resumeIn('scheduling') },
        },
        pulling: {
          entry: 'enterPulling',
          always: { guard: 'provisioningInstant', target: 'starting' },
          after: { provisioningStep: 'starting' },
          on: { RESUME: resumeIn('pulling') },
        },
        starting: {
          entry: 'enterStarting',
          always: { guard: 'provisioningInstant', target: 'session' },
          after: { provisioningStep: 'session' },
          on: { RESUME: resumeIn('starting') },
        },
        session: {
          invoke: {
            id: LINK_ID,
            src: 'link',
            input: ({ context }) => ({
              identity: context.identity,
              version: context.version,
              ...(context.url ? { url: context.url } : {}),
              pingIntervalSec: intSetting(context, 'WebSocketPingInterval'),
            }),
          },
          initial: 'connecting',
          on: {
            RESUME: resumeIn('session', 'prepareSessionResume'),
            'link.closed': { target: 'offline', actions: 'connectionLost' },
            'link.failed': { target: 'offline', actions: 'connectionLost' },
            'ocpp.result': { actions: 'handleResult' },
            'ocpp.error': { actions: 'handleError' },
            'csms.call': { actions: 'answerCsmsCall' },
            DISCONNECT: { actions: 'dropLink' },
          },
          states: {
            connecting: {
              entry: 'enterConnecting',
              on: {
                'link.open': { target: 'registering', actions: 'securityLinkOpened' },
                'link.failed': {
                  target: '#charger.deployed.offline',
                  actions: ['connectFailed', 'securityConnectFailed'],
                },
                'link.closed': {
                  target: '#charger.deployed.offline',
                  actions: ['connectFailed', 'securityConnectFailed'],
                },
              },
              after: stuckAfterDeadline,
            },
            registering: {
              entry: 'enterRegistering',
              initial: 'booting',
              after: stuckAfterDeadline,
              states: {
                booting: {
                  entry: 'sendBoot',
                  on: {
                    'ocpp.result': [
                      {
                        guard: 'bootAccepted',
                        target: '#charger.deployed.session.online',
                        actions: 'bootAccepted',
                      },
                      { guard: 'isBootAnswer', target: 'waiting', actions: 'bootNotAccepted' },
                      { actions: 'handleResult' },
                    ],
                    'ocpp.error': [
                      { guard: 'isBootAnswer', target: 'waiting', actions: 'bootNotAccepted' },
                      { actions: 'handleError' },
                    ],
                  },
                },
                waiting: {
                  after: { bootRetryDelay: 'booting' },
                  // A boot the CSMS triggered meanwhile (TriggerMessage) and accepted counts.
                  on: {
                    'ocpp.result': {
                      guard: 'bootAccepted',
                      target: '#charger.deployed.session.online',
                      actions: 'bootAccepted',
                    },
                  },
                },
              },
            },
            online: {
              entry: ['enterOnline', 'startOnline', 'securityOnline'],
              exit: 'leaveOnline',
              on: {
                'internal.reboot': {
                  target: '#charger.deployed.starting',
                  actions: 'forgetReset',
                },
              },
            },
          },
        },
        offline: {
          entry: 'enterOffline',
          after: { reconnectDelay: 'session', ...stuckAfterDeadline },
          on: {
            RESUME: resumeIn('offline'),
            DISCONNECT: { actions: 'notRunning' },
          },
        },
      },
    },
    stopped: {
      entry: 'enterStopped',
      on: {
        START: { target: 'deployed', actions: 'nextAttempt' },
        RESTART: { target: 'deployed', actions: 'nextAttempt' },
      },
    },
  },
});

export type ChargerMachine = typeof chargerMachine;
