// The one live stream of stage changes of the whole fleet (GET /evcharger/fleet/stream), shared by
// every view that shows stages: opened with the first listener, closed with the last.
import { stream } from './api.js';

const listeners = new Set();
const reconnected = new Set();
let stop = null;

export function onStage(fn, onReconnect) {
  listeners.add(fn);
  if (onReconnect) reconnected.add(onReconnect);
  if (!stop)
    stop = stream(
      '/evcharger/fleet/stream',
      (event, data) => {
        if (event !== 'stage') return;
        const change = JSON.parse(data);
        for (const l of listeners) l(change);
      },
      // Changes missed while disconnected: each view re-reads its page.
      () => {
        for (const r of reconnected) r();
      },
    );
  return () => {
    listeners.delete(fn);
    if (onReconnect) reconnected.delete(onReconnect);
    if (listeners.size === 0 && stop) {
      stop();
      stop = null;
    }
  };
}
