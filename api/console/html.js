// htm bound to preact: tagged templates instead of JSX, so the modules run as they are served.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);

/** Shared small formatters. */
export const fmt = {
  time: (iso) => (iso ? new Date(iso).toLocaleTimeString() : ''),
  kw: (w) => (w === null || w === undefined ? '–' : `${(w / 1000).toFixed(1)} kW`),
  kwh: (wh) => (wh === null || wh === undefined ? '–' : `${(wh / 1000).toFixed(2)} kWh`),
  pct: (v) => (v === null || v === undefined ? '–' : `${Math.round(v)} %`),
};
